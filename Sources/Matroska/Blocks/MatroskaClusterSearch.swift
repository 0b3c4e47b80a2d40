/// Finds the Cluster playing at a time in a file without Cues (a browser's MediaRecorder writes none), by probes
/// of a few KiB: an interpolation between the Clusters known on either side of the time (halving when one did not
/// narrow the span to three quarters), each probe
/// resynchronised on the next Cluster header in it (its ID, a size, then its Timestamp). Sans I/O: ask
/// `nextProbe(for:)` which bytes to read, give them to `receive(_:at:)`, and read frames from `start(for:)` once it
/// says none is needed.
public struct MatroskaClusterSearch: Sendable {
    /// A Cluster found: where its header starts and its Timestamp.
    public struct Point: Sendable, Equatable {
        public var offset: UInt64
        public var time: Int64

        /// Makes a point.
        public init(offset: UInt64, time: Int64) {
            self.offset = offset
            self.time = time
        }
    }

    /// The Clusters found, in file order (and so in order of time).
    public private(set) var points: [Point]
    /// Where the Clusters end: the Segment's end or the file's.
    public let end: UInt64
    /// The time at `end`, where the file says (its Duration).
    public let endTime: Int64?
    /// The bytes of one probe.
    public let probeBytes: UInt64
    /// Probes made so far.
    public private(set) var probes = 0
    /// The spans probes read (every Cluster header whole in them is known).
    private var scanned: [Range<UInt64>] = []
    /// The last probe, and whether it found a Cluster.
    private var lastProbe: (range: Range<UInt64>, found: Bool)?
    /// The span the last placed probe narrowed.
    private var lastSpan: UInt64?

    /// Most probes for one time: 2^12 windows of 16 KiB narrow 64 MiB to one, and interpolation does better.
    public static let maximumProbes = 12
    /// A Cluster header and its Timestamp take at most 4 + 8 + 1 + 8 + 8 bytes.
    static let headerBytes = 29

    /// The bytes a probe reads unless told otherwise.
    public static let defaultProbeBytes: UInt64 = 16 << 10

    /// A search over the Clusters from `first` (the first Cluster) to `end` (where the time is `endTime`, when known),
    /// knowing `known` besides.
    public init(first: Point, end: UInt64, endTime: Int64? = nil, known: [Point] = [], probeBytes: UInt64 = defaultProbeBytes) {
        self.end = end
        self.endTime = endTime
        self.probeBytes = max(UInt64(Self.headerBytes) * 2, probeBytes)
        points = []
        for point in [first] + known { insert(point) }
    }

    /// The last Cluster known to start at or before `target` (timestamp units).
    public func start(for target: Int64) -> Point {
        points.last { $0.time <= target } ?? points[0]
    }

    /// The bytes to read next to find the Cluster playing at `target`; nil when the Cluster before it and the one
    /// after are known to be neighbours (the span between them, once narrowed to two probes' bytes, is read whole) or
    /// the probes are spent. A probe that finds no Cluster is followed by one twice its size from where it ended (a
    /// Cluster larger than a probe is crossed in a few), and what probes read without finding one narrows the span.
    public mutating func nextProbe(for target: Int64) -> Range<UInt64>? {
        guard probes < Self.maximumProbes else { return nil }
        let low = start(for: target)
        guard low.time < target else { return nil }  // a Cluster starts at the time itself
        let high = points.first { $0.time > target }
        let upper = clusterFreeStart(from: low.offset, before: high?.offset ?? end)
        let header = UInt64(Self.headerBytes)
        guard upper > low.offset + header else { return nil }
        // A read up to `upper` goes a header's bytes past it, so that a Cluster starting just before it is seen whole.
        let reach = min(end, upper + header)
        if upper - low.offset <= 2 * probeBytes {
            // Close enough: the span read whole, once, so that every Cluster in it is known.
            return ask(low.offset ..< reach)
        }
        if let last = lastProbe, !last.found, last.range.lowerBound > low.offset, last.range.upperBound < upper {
            // Read on from where the last probe ended (its last bytes again: a header it cut), twice as much.
            let from = last.range.upperBound - header
            return ask(from ..< min(reach, from + 2 * UInt64(last.range.count)))
        }
        // Interpolation on the times, unless the last probe left more than three quarters of the span it narrowed
        // (a skewed file): then halving, so the search still converges.
        let interpolates = lastSpan.map { UInt64(upper - low.offset) * 4 <= $0 * 3 } ?? true
        lastSpan = upper - low.offset
        var estimate: UInt64
        if let high, high.time > low.time, interpolates {
            let share = Double(target - low.time) / Double(high.time - low.time)
            estimate = low.offset + UInt64(Double(upper - low.offset) * min(max(share, 0), 1))
        } else if high == nil, let endTime, endTime > low.time, interpolates {
            // Past the last Cluster known: interpolate up to the end, where the file's Duration ends.
            let share = Double(target - low.time) / Double(endTime - low.time)
            estimate = low.offset + UInt64(Double(upper - low.offset) * min(max(share, 0), 1))
        } else if high == nil, let last = points.last, last.time > points[0].time, interpolates {
            // Past the last Cluster known: extrapolate at the rate seen so far.
            let rate = Double(last.offset - points[0].offset) / Double(last.time - points[0].time)
            estimate = low.offset + UInt64(min(Double(upper - low.offset), max(0, Double(target - low.time) * rate)))
        } else {
            estimate = low.offset + (upper - low.offset) / 2
        }
        // A probe starts a little before the estimate (a Cluster starts there as often as after) and inside the span.
        estimate = min(max(estimate.saturatingSubtract(probeBytes / 4), low.offset + 1), upper - probeBytes)
        var range = estimate ..< estimate + probeBytes
        // Where a probe has read already, the one before it: ending a header's bytes into it, so that a Cluster
        // starting at its edge is seen whole.
        while let read = scanned.first(where: { $0.lowerBound <= range.lowerBound && range.upperBound <= $0.upperBound }) {
            guard read.lowerBound > low.offset + probeBytes else { break }
            let end = read.lowerBound + header
            range = end - probeBytes ..< end
        }
        return ask(range)
    }

    /// `range` as the next probe, unless it was read already (then the search cannot narrow further).
    private mutating func ask(_ range: Range<UInt64>) -> Range<UInt64>? {
        guard !scanned.contains(where: { $0.lowerBound <= range.lowerBound && range.upperBound <= $0.upperBound }) else { return nil }
        probes += 1
        return range
    }

    /// Takes the bytes of a probe read at `offset`: the Cluster headers in them become points.
    public mutating func receive(_ bytes: [UInt8], at offset: UInt64) {
        let found = Self.clusters(in: bytes, at: offset, before: end)
        for point in found { insert(point) }
        let range = offset ..< offset + UInt64(bytes.count)
        scanned.append(range)
        lastProbe = (range, !found.isEmpty)
    }

    /// Where the span from `low` up to `upper` stops holding a Cluster's start: `upper`, moved down past every span
    /// read that found none up to it (a Cluster's header cut at a read's end is not ruled out).
    private func clusterFreeStart(from low: UInt64, before upper: UInt64) -> UInt64 {
        var upper = upper
        var moved = true
        while moved {
            moved = false
            for range in scanned where range.lowerBound > low && range.lowerBound < upper
                && (range.upperBound >= upper + UInt64(Self.headerBytes) || range.upperBound >= end) {
                upper = range.lowerBound
                moved = true
            }
        }
        return upper
    }

    /// The Clusters whose header and Timestamp lie in `bytes` (read at `offset`): each Cluster ID followed by a size
    /// that fits before `end` (or unknown) and a Timestamp element as its first child.
    public static func clusters(in bytes: [UInt8], at offset: UInt64, before end: UInt64) -> [Point] {
        var found: [Point] = []
        var index = 0
        while index + 4 <= bytes.count {
            guard bytes[index] == 0x1F, bytes[index + 1] == 0x43, bytes[index + 2] == 0xB6, bytes[index + 3] == 0x75 else {
                index += 1
                continue
            }
            let at = offset + UInt64(index)
            if let point = cluster(in: bytes[index...], at: at, before: end) { found.append(point) }
            index += 4
        }
        return found
    }

    private static func cluster(in bytes: ArraySlice<UInt8>, at offset: UInt64, before end: UInt64) -> Point? {
        guard let header = try? EBMLElementHeader.read(bytes, at: offset), header.id == MatroskaID.cluster,
              header.end.map({ $0 <= end }) ?? true else { return nil }
        let childStart = bytes.startIndex + header.headerLength
        guard let child = try? EBMLElementHeader.read(bytes[childStart...], at: header.dataOffset),
              child.id == MatroskaID.timestamp, let size = child.dataSize, size >= 1, size <= 8 else { return nil }
        let valueStart = childStart + child.headerLength
        guard valueStart + Int(size) <= bytes.endIndex,
              let time = try? EBMLValue.unsigned(bytes[valueStart ..< valueStart + Int(size)], path: "", offset: offset),
              time <= UInt64(Int64.max >> 1) else { return nil }
        return Point(offset: offset, time: Int64(time))
    }

    /// Whether `bytes` (a Cluster's first bytes) show that it starts with a keyframe of `track`: a SimpleBlock of the
    /// track with its keyframe flag right after the Timestamp, as a browser's recordings and ffmpeg's live mode
    /// start each Cluster.
    public static func clusterStartsWithKeyframe(_ bytes: [UInt8], track: UInt64) -> Bool {
        var position = 0
        for expected in [MatroskaID.cluster, MatroskaID.timestamp] {
            guard let header = try? EBMLElementHeader.read(bytes[position...], at: UInt64(position)), header.id == expected else {
                return false
            }
            position += header.headerLength + (expected == MatroskaID.cluster ? 0 : Int(min(header.dataSize ?? 64, 64)))
            guard position < bytes.count else { return false }
        }
        guard let block = try? EBMLElementHeader.read(bytes[position...], at: UInt64(position)), block.id == MatroskaID.simpleBlock
        else { return false }
        let data = bytes[(position + block.headerLength)...]
        return MatroskaBlock.track(of: data) == track && MatroskaBlock.keyframeFlag(of: data) == true
    }

    /// Keeps `point` in file order, unless a point is known there or it contradicts the order of times.
    private mutating func insert(_ point: Point) {
        let index = points.firstIndex { $0.offset >= point.offset } ?? points.count
        if index < points.count, points[index].offset == point.offset { return }
        if index > 0, points[index - 1].time > point.time { return }
        if index < points.count, points[index].time < point.time { return }
        points.insert(point, at: index)
    }
}
