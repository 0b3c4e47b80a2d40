import MP4Box
import TransportStream

/// H.264 coded as field pictures (PAFF, as camcorders and broadcasters record 1080i) carries each field in MPEG-TS as
/// an access unit of its own, with its own PES packet and time; a movie's sample is a frame, both of its fields, as MP4
/// stores them and as a decoder shows them. A field whose slices have the frame_num of the field just before, and the
/// other parity, is that field's second: the two become one access unit, at the first's times.
enum FieldPairs {
    /// `units` with each H.264 second field joined to its first; `parameterSets` (and those in band) say how to read
    /// the slice headers. Units of a progressive stream, or whose slices cannot be read, are left as they are.
    static func frames(of units: ArraySlice<TransportAccessUnit>, parameterSets: [[UInt8]]) -> [TransportAccessUnit] {
        var slices = H264SliceReferences()
        for set in parameterSets { slices.add(parameterSet: set) }
        var frames: [TransportAccessUnit] = []
        frames.reserveCapacity(units.count)
        var awaitingPair: (frameNumber: Int, isBottom: Bool)?
        for unit in units {
            for nal in unit.nalUnits where nal.first.map({ [7, 8].contains($0 & 0x1F) }) == true { slices.add(parameterSet: nal) }
            let field = unit.nalUnits.lazy.compactMap { slices.field(ofSlice: $0) }.first
            if let field, let first = awaitingPair, first.frameNumber == field.frameNumber, first.isBottom != field.isBottom,
               var frame = frames.popLast() {
                frame.nalUnits += unit.nalUnits
                frame.byteRange = frame.byteRange.lowerBound ..< max(frame.byteRange.upperBound, unit.byteRange.upperBound)
                frame.isDisposable = frame.isDisposable && unit.isDisposable
                frames.append(frame)
                awaitingPair = nil
            } else {
                frames.append(unit)
                awaitingPair = field
            }
        }
        return frames
    }
}
