/// The data of a SimpleBlock or Block element (RFC 9559, section 10): its track, its timestamp relative to its
/// Cluster's, its flags, and its frames (one, or several when laced).
struct MatroskaBlock {
    /// TrackNumber of the track it belongs to.
    var track: UInt64
    /// Its timestamp relative to its Cluster's, in timestamp units.
    var relativeTimestamp: Int16
    /// SimpleBlock's keyframe flag (always false for a Block: its BlockGroup tells).
    var isKeyframe: Bool
    /// The frames' byte ranges within the data given.
    var frames: [Range<Int>]

    /// Reads only the track number of a block whose data starts `data`, nil when `data` ends before it.
    static func track(of data: ArraySlice<UInt8>) -> UInt64? {
        guard let first = data.first, first != 0 else { return nil }
        let length = first.leadingZeroBitCount + 1
        guard length <= 8, data.count >= length else { return nil }
        return data.prefix(length).dropFirst().reduce(UInt64(first & (0xFF >> length))) { $0 << 8 | UInt64($1) }
    }

    /// A SimpleBlock's keyframe flag from the start of its data; nil before its flags are there.
    static func keyframeFlag(of data: ArraySlice<UInt8>) -> Bool? {
        guard let first = data.first, first != 0 else { return nil }
        let flags = data.startIndex + first.leadingZeroBitCount + 1 + 2
        return flags < data.endIndex ? data[flags] & 0x80 != 0 : nil
    }

    /// Reads a block's data.
    /// - Throws: `MatroskaError` `malformed` for a header or lace that does not fit, `limitExceeded` for more than
    ///   `limits.maximumLacedFrames` frames.
    init(_ data: ArraySlice<UInt8>, simple: Bool, offset: UInt64, path: String, limits: MatroskaLimits) throws(MatroskaError) {
        func malformed(_ detail: String) -> MatroskaError { MatroskaError(.malformed, path: path, offset: offset, detail) }
        guard let track = Self.track(of: data) else { throw malformed("the block's track number cannot be read") }
        let trackLength = data[data.startIndex].leadingZeroBitCount + 1
        var position = data.startIndex + trackLength
        guard data.endIndex - position >= 3 else { throw malformed("the block ends inside its header") }
        self.track = track
        relativeTimestamp = Int16(bitPattern: UInt16(data[position]) << 8 | UInt16(data[position + 1]))
        let flags = data[position + 2]
        isKeyframe = simple && flags & 0x80 != 0
        position += 3
        let lacing = (flags >> 1) & 0x03
        guard lacing != 0 else {
            frames = [(position - data.startIndex) ..< data.count]
            return
        }
        guard position < data.endIndex else { throw malformed("a laced block without its frame count") }
        let count = Int(data[position]) + 1
        position += 1
        guard count <= limits.maximumLacedFrames else {
            throw MatroskaError(.limitExceeded, path: path, offset: offset, "a lace of \(count) frames")
        }
        var sizes: [Int] = []
        switch lacing {
        case 1:  // Xiph: each size but the last as a run of 255s and the byte that ends it.
            for _ in 0 ..< count - 1 {
                var size = 0
                while true {
                    guard position < data.endIndex else { throw malformed("a Xiph lace's sizes run past the block") }
                    let byte = data[position]
                    position += 1
                    size += Int(byte)
                    if byte != 255 { break }
                }
                sizes.append(size)
            }
        case 3:  // EBML: the first size, then signed differences.
            var previous = 0
            for index in 0 ..< count - 1 {
                guard position < data.endIndex, data[position] != 0 else { throw malformed("an EBML lace's size cannot be read") }
                let length = data[position].leadingZeroBitCount + 1
                guard data.endIndex - position >= length else { throw malformed("an EBML lace's sizes run past the block") }
                let raw = data[position ..< position + length].dropFirst().reduce(Int64(data[position] & (0xFF >> length))) { $0 << 8 | Int64($1) }
                position += length
                let value = index == 0 ? raw : raw - (Int64(1) << (7 * length - 1) - 1)
                let size = index == 0 ? value : Int64(previous) + value
                guard size >= 0, size <= Int64(data.count) else { throw malformed("an EBML lace's size is out of range") }
                previous = Int(size)
                sizes.append(previous)
            }
        default:  // Fixed: equal sizes.
            let remaining = data.endIndex - position
            guard remaining % count == 0 else { throw malformed("a fixed lace of \(remaining) bytes does not split into \(count) frames") }
            sizes = Array(repeating: remaining / count, count: count - 1)
        }
        let listed = sizes.reduce(0, +)
        guard listed <= data.endIndex - position else { throw malformed("a lace's frames are larger than the block") }
        sizes.append(data.endIndex - position - listed)
        var frames: [Range<Int>] = []
        var start = position - data.startIndex
        for size in sizes {
            frames.append(start ..< start + size)
            start += size
        }
        self.frames = frames
    }
}
