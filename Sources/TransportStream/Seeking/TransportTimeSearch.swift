/// Finds the keyframe for a time in a transport stream read without an index (a `.ts` or `.m2ts` file), by probes
/// of a few dozen KiB: the pictures' PES packets in each probe (`TransportPictureStart`) place times at offsets, and
/// the search narrows the span of the time between the pictures known on either side of it (interpolating on their
/// decoding times, halving when a probe did not narrow the span to three quarters) until the two are neighbours;
/// then it reads back from there, in windows that double, to the last keyframe shown at or before the time; for the
/// nearest keyframe, it reads on as well, until a keyframe after the time or a picture decoded as far after it as
/// that keyframe is before.
///
/// Times are 90 kHz ticks from `origin` (the stream's first picture), taken from 33-bit timestamps modulo 2^33, so a
/// stream whose timestamps wrap is searched as one timeline. Offsets follow decoding order, as a multiplex does.
///
/// Sans I/O: ask `nextProbe(for:goal:)` which bytes to read, give them to `receive(_:at:)`, and take
/// `keyframe(for:goal:)` once no probe is needed (or the probes are spent: the best keyframe known).
public struct TransportTimeSearch: Sendable {
    /// A picture found: where its PES packet starts, its times from the origin, whether it is a keyframe.
    public struct Point: Sendable, Equatable {
        public var offset: UInt64
        public var presentationTime: Int64
        public var decodeTime: Int64
        public var isKeyframe: Bool
    }

    /// Which keyframe a time wants.
    public enum Goal: Sendable {
        /// The last shown at or before the time (to decode on from, up to the time).
        case atOrBefore
        /// The one shown nearest the time (at or before it when two are as near).
        case nearest
    }

    /// How the packets lie, and the stream searched.
    public let layout: TransportPacketLayout
    public let pid: UInt16
    public let codec: TransportVideoCodec
    /// The 33-bit timestamp of time zero.
    public let origin: Int64
    /// Where the stream ends (its length), and the time there when known.
    public let end: UInt64
    public let endTime: Int64?
    /// The bytes of one probe.
    public let probeBytes: UInt64
    /// The pictures found, in stream order.
    public private(set) var points: [Point] = []
    /// Probes asked for so far for the time last asked about (a search for another time starts a new count: what
    /// the earlier probes found is kept).
    public private(set) var probes = 0
    /// Most probes for one time.
    public static let maximumProbes = 24
    /// The probe size unless told otherwise.
    public static let defaultProbeBytes: UInt64 = 64 << 10

    /// The places a packet may start that reads have shown, merged, in order.
    private var examined: [Range<UInt64>] = []
    /// The spans the span probes narrowed, in order.
    private var spans: [UInt64] = []
    /// The last probe in a span, and whether a picture starts in it.
    private var lastSpanProbe: (range: Range<UInt64>, found: Bool)?
    private var backWindows = 0
    private var onWindows = 0
    /// The time and goal the counts above are for.
    private var searching: (target: Int64, goal: Goal)?

    /// A search of stream `pid` (coded as `codec`) in packets that lie as `layout` says, `end` bytes long, whose time
    /// zero is the timestamp `origin` and whose end is at `endTime` when known.
    public init(layout: TransportPacketLayout, pid: UInt16, codec: TransportVideoCodec, origin: Int64, end: UInt64,
                endTime: Int64? = nil, probeBytes: UInt64 = defaultProbeBytes) {
        self.layout = layout
        self.pid = pid
        self.codec = codec
        self.origin = origin & (Self.period - 1)
        self.end = end
        self.endTime = endTime
        self.probeBytes = max(UInt64(layout.packetSize) * 4, probeBytes)
    }

    /// The period of a 33-bit timestamp.
    static let period: Int64 = 1 << 33

    /// `timestamp` (33 bits) as ticks from the origin: the nearest value with the same low 33 bits, so up to 13 hours
    /// either side.
    public func time(of timestamp: Int64) -> Int64 { Self.ticks(timestamp, from: origin) }

    /// `timestamp` as ticks from `base` (both 33 bits): the nearest value with the same low 33 bits.
    static func ticks(_ timestamp: Int64, from base: Int64) -> Int64 {
        var value = (timestamp - base) & (period - 1)
        if value >= period / 2 { value -= period }
        return value
    }

    /// Takes the bytes of a read at `offset`: the pictures starting in them become points, and every place a packet
    /// may start in them is known to hold no other.
    public mutating func receive(_ bytes: [UInt8], at offset: UInt64) {
        let starts = TransportPictureStart.all(in: bytes[...], at: offset, layout: layout, pid: pid, codec: codec)
        lastSpanProbe = (offset ..< offset + UInt64(bytes.count), !starts.isEmpty)
        for start in starts {
            insert(Point(offset: start.offset, presentationTime: time(of: start.presentationTimestamp),
                         decodeTime: time(of: start.decodingTimestamp), isKeyframe: start.isKeyframe))
        }
        let size = UInt64(layout.packetSize)
        let reach = offset + UInt64(bytes.count) >= end ? end : offset + UInt64(bytes.count)
        guard reach >= offset + size || reach == end, reach > offset else { return }
        // A packet starting past `reach - size` is cut, unless the stream ends there.
        note(offset ..< (reach == end ? end : reach - size + 1))
    }

    private mutating func insert(_ point: Point) {
        let index = points.firstIndex { $0.offset >= point.offset } ?? points.count
        if index < points.count, points[index].offset == point.offset { return }
        points.insert(point, at: index)
    }

    private mutating func note(_ range: Range<UInt64>) {
        var merged = range
        var kept: [Range<UInt64>] = []
        for known in examined {
            if known.upperBound < merged.lowerBound || known.lowerBound > merged.upperBound {
                kept.append(known)
            } else {
                merged = min(known.lowerBound, merged.lowerBound) ..< max(known.upperBound, merged.upperBound)
            }
        }
        kept.append(merged)
        examined = kept.sorted { $0.lowerBound < $1.lowerBound }
    }

    /// The parts of `range` no read has shown, in order.
    private func gaps(in range: Range<UInt64>) -> [Range<UInt64>] {
        var gaps: [Range<UInt64>] = []
        var from = range.lowerBound
        for known in examined where known.upperBound > from && known.lowerBound < range.upperBound {
            if known.lowerBound > from { gaps.append(from ..< known.lowerBound) }
            from = max(from, known.upperBound)
        }
        if from < range.upperBound { gaps.append(from ..< range.upperBound) }
        return gaps
    }

    /// The last picture decoded at or before `target`, and the first after it.
    private func bracket(_ target: Int64) -> (low: Point?, high: Point?) {
        let low = points.last { $0.decodeTime <= target }
        let high = points.first { $0.offset > (low?.offset ?? 0) && $0.decodeTime > target } ?? (low == nil ? points.first : nil)
        return (low, high)
    }

    /// The last keyframe known before `low` (in stream order) shown at or before `target`.
    private func keyframeBefore(_ target: Int64, low: Point?) -> Point? {
        guard let low else { return nil }
        return points.last { $0.isKeyframe && $0.offset <= low.offset && $0.presentationTime <= target }
    }

    /// The keyframe known to be shown first after `target` (one decoded before the time may be shown after it).
    private func keyframeAfter(_ target: Int64) -> Point? {
        points.filter { $0.isKeyframe && $0.presentationTime > target }.min { $0.presentationTime < $1.presentationTime }
    }

    /// The keyframe for `target` as far as the reads show: for `.atOrBefore` the last shown at or before it (else the
    /// first after it); for `.nearest` whichever of that one and the first after it is shown nearer. Nil when no
    /// keyframe is known on either side.
    public func keyframe(for target: Int64, goal: Goal) -> Point? {
        let (low, _) = bracket(target)
        let before = keyframeBefore(target, low: low)
        let after = keyframeAfter(target)
        guard let before else { return after }
        guard goal == .nearest, let after else { return before }
        return after.presentationTime - target < target - before.presentationTime ? after : before
    }

    /// The bytes to read next to find the keyframe for `target` (ticks from the origin); nil when the reads show it
    /// (`keyframe(for:goal:)`), or the probes are spent.
    public mutating func nextProbe(for target: Int64, goal: Goal) -> Range<UInt64>? {
        if searching?.target != target || searching?.goal != goal {
            searching = (target, goal)
            (probes, spans, backWindows, onWindows, lastSpanProbe) = (0, [], 0, 0, nil)
        }
        guard probes < Self.maximumProbes else { return nil }
        let size = UInt64(layout.packetSize)
        let (low, high) = bracket(target)
        let lowOffset = low?.offset ?? 0
        // First, the pictures on either side of the time made neighbours.
        let upper = high?.offset ?? end
        if lowOffset < upper, let range = spanProbe(low: low, high: high, upper: upper, target: target) {
            return ask(range)
        }
        // Then out from there, back and on, over what is read without a gap around the time.
        let backGap = gaps(in: 0 ..< lowOffset).last
        let onGap = gaps(in: lowOffset ..< end).first
        let backFrom = backGap?.upperBound ?? 0
        let onTo = onGap?.lowerBound ?? end
        let before = points.last { $0.isKeyframe && $0.offset >= backFrom && $0.offset <= lowOffset && $0.presentationTime <= target }
        let after = keyframeAfter(target).flatMap { $0.offset < onTo ? $0 : nil }
        let backReach = points.first { $0.offset >= backFrom }?.decodeTime ?? target
        let onReach = points.last { $0.offset < onTo }?.decodeTime ?? target
        // A keyframe decoded before what is read back to is shown at most the deepest reordering after it.
        let reordering = points.map { $0.presentationTime - $0.decodeTime }.max() ?? 0
        let distanceBefore = before.map { target - $0.presentationTime }
        let distanceAfter = after.map { $0.presentationTime - target }
        let backSettled = before != nil || backGap == nil
            || goal == .nearest && distanceAfter.map { backReach + reordering < target - $0 } ?? false
        // On past the time: for the nearest keyframe until one is found or none could be nearer than the one before;
        // for the one at or before the time only where there is none before it (then the first after is taken).
        let onNeeded = goal == .nearest || before == nil && backGap == nil
        let onSettled = !onNeeded || after != nil || onGap == nil || distanceBefore == 0
            || distanceBefore.map { onReach >= target + $0 } ?? false
        guard !(backSettled && onSettled) else { return nil }
        let rate = bytesPerTick
        if !backSettled, onSettled || target - backReach <= onReach - target, let gap = backGap {
            var window = probeBytes << UInt64(min(backWindows, 6))
            backWindows += 1
            if let distanceAfter, let rate {
                // No further back than a keyframe nearer than the one after could be.
                window = min(window, probeBytes + UInt64(max(0, Double(backReach + reordering - (target - distanceAfter)) * rate * 1.25)))
            }
            return ask(max(gap.lowerBound, Self.below(gap.upperBound, by: window)) ..< min(end, gap.upperBound + size - 1))
        }
        guard let gap = onGap else { return nil }
        var window = probeBytes << UInt64(min(onWindows, 6))
        onWindows += 1
        if let distanceBefore, let rate {
            // No further on than a keyframe nearer than the one before could be.
            window = min(window, probeBytes + UInt64(max(0, Double(target + distanceBefore - onReach) * rate * 1.25)))
        }
        return ask(gap.lowerBound ..< min(end, gap.lowerBound + window + size - 1))
    }

    /// The file's bytes per tick as the pictures known furthest apart show them; nil before two are known.
    private var bytesPerTick: Double? {
        guard let first = points.first, let last = points.last, last.decodeTime > first.decodeTime else { return nil }
        return Double(last.offset - first.offset) / Double(last.decodeTime - first.decodeTime)
    }

    /// A probe in the span between the pictures known on either side of `target` (`high` nil: up to the end); nil when
    /// the reads show all of it.
    private mutating func spanProbe(low: Point?, high: Point?, upper: UInt64, target: Int64) -> Range<UInt64>? {
        let lowOffset = low?.offset ?? 0
        let open = gaps(in: lowOffset ..< upper)
        guard let first = open.first, let last = open.last else { return nil }
        let size = UInt64(layout.packetSize)
        let span = last.upperBound - first.lowerBound
        if span <= 2 * probeBytes {
            // Close enough: the rest read whole.
            return first.lowerBound ..< min(end, last.upperBound + size - 1)
        }
        if let last = lastSpanProbe, !last.found, last.range.upperBound > lowOffset, last.range.upperBound < upper,
           let next = open.first(where: { $0.lowerBound + size >= last.range.upperBound && $0.lowerBound < last.range.upperBound + size }) {
            // A probe inside one picture's packets (a keyframe larger than a probe) is followed by one twice its size
            // from where it ended, rather than by a jump: the picture's end is near.
            let from = next.lowerBound
            return from ..< min(end, from + 2 * UInt64(last.range.count))
        }
        let lowTime = low?.decodeTime ?? points.first?.decodeTime
        if let rate = bytesPerTick, let lowTime, Double(target - lowTime) * rate <= Double(probeBytes) {
            // The time is a probe's bytes past the picture before it, by the file's rate: read on from there.
            return first.lowerBound ..< min(end, first.lowerBound + 2 * probeBytes + size - 1)
        }
        if let rate = bytesPerTick, let high, Double(high.decodeTime - target) * rate <= Double(probeBytes) {
            // A probe's bytes before the picture after it: read up to that picture.
            let from = max(last.lowerBound, Self.below(last.upperBound, by: 2 * probeBytes))
            return from ..< min(end, last.upperBound + size - 1)
        }
        // Interpolation on the decoding times, unless the last three probes left more than three quarters of the span
        // (a file whose rate is skewed): then halving, so the search still converges.
        let interpolates = spans.count < 3 || span * 4 <= spans[spans.count - 3] * 3
        spans.append(span)
        var estimate = first.lowerBound + span / 2
        let highTime = high?.decodeTime ?? endTime
        if interpolates, let highTime, let lowTime, highTime > lowTime {
            let share = min(max(Double(target - lowTime) / Double(highTime - lowTime), 0), 1)
            estimate = lowOffset + UInt64(Double(upper - lowOffset) * share)
        }
        // Into the open part nearest the estimate, starting a quarter probe before it.
        let gap = open.min { Self.distance(estimate, to: $0) < Self.distance(estimate, to: $1) } ?? first
        var start = Self.below(estimate, by: probeBytes / 4)
        start = min(max(start, gap.lowerBound), Self.below(gap.upperBound, by: probeBytes))
        start = max(start, gap.lowerBound)
        return start ..< min(end, start + probeBytes + size - 1)
    }

    /// `offset - count`, or 0 below it.
    private static func below(_ offset: UInt64, by count: UInt64) -> UInt64 { offset > count ? offset - count : 0 }

    private static func distance(_ offset: UInt64, to range: Range<UInt64>) -> UInt64 {
        offset < range.lowerBound ? range.lowerBound - offset : offset >= range.upperBound ? offset - range.upperBound + 1 : 0
    }

    private mutating func ask(_ range: Range<UInt64>) -> Range<UInt64>? {
        guard !range.isEmpty else { return nil }
        probes += 1
        return range
    }
}
