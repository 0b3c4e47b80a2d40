import FrameDecode

/// Shows an interlaced frame (two fields woven line by line, each from its own instant) as one instant, before it is
/// scaled. The rows of the field that comes first are kept. A row of the other field is kept too where it agrees with
/// them, and made again where it combs: where its sample lies beyond both kept samples above and below it, on the same
/// side, by more than a threshold (`combThreshold`, 8 code values at 8 bits), and nearer its own field's samples two
/// rows up and down than those kept ones: the mark of something that moved between the two instants. There it is interpolated from the kept rows along the edge direction that matches them best:
/// yadif's and bwdif's spatial interpolation (of the directions 0, then -1, -2 and +1, +2, each tried only while it
/// keeps improving, the one whose three-sample differences across the gap are smallest, the two samples it joins
/// averaged). A keyframe decoded alone has no neighbouring frames for their temporal half; the other field of the same
/// frame stands in for it, so that still parts, and progressive pictures coded as fields (film in 1080i), keep every
/// row.
enum Deinterlacer {
    /// How far past both of its kept neighbours, on one side, a sample of the other field must be to count as combing,
    /// at 8 bits (scaled with the bit depth).
    static let combThreshold = 8

    /// `frame` deinterlaced, every plane (alpha too) alike; a progressive frame as it is.
    static func deinterlaced(_ frame: DecodedFrame) -> DecodedFrame {
        guard let order = frame.fieldOrder else { return frame }
        let bytesPerSample = frame.bitDepth > 8 ? 2 : 1
        let keptParity = order == .topFieldFirst ? 0 : 1
        var result = frame
        let threshold = combThreshold << max(0, frame.bitDepth - 8)
        result.planes = frame.planes.map { interpolated($0, keptParity: keptParity, bytesPerSample: bytesPerSample, threshold: threshold) }
        result.alpha = frame.alpha.map { interpolated($0, keptParity: keptParity, bytesPerSample: bytesPerSample, threshold: threshold) }
        result.fieldOrder = nil
        return result
    }

    /// `plane` with the combing samples of every row whose parity is not `keptParity` made again from the rows around
    /// them.
    static func interpolated(_ plane: DecodedFrame.Plane, keptParity: Int, bytesPerSample: Int, threshold: Int) -> DecodedFrame.Plane {
        guard plane.height > 1, plane.width > 0 else { return plane }
        var data = plane.data
        let width = plane.width
        func sample(_ row: Int, _ column: Int) -> Int {
            let at = row * plane.bytesPerRow + min(max(column, 0), width - 1) * bytesPerSample
            return bytesPerSample == 1 ? Int(plane.data[at]) : Int(plane.data[at]) | Int(plane.data[at + 1]) << 8
        }
        for row in stride(from: 1 - keptParity, to: plane.height, by: 2) {
            // The kept rows on either side (at the picture's edge, the one there is, twice).
            let above = row - 1 >= 0 ? row - 1 : row + 1
            let below = row + 1 < plane.height ? row + 1 : row - 1
            for column in 0..<width {
                let (up, woven, down) = (sample(above, column), sample(row, column), sample(below, column))
                guard woven - up > threshold && woven - down > threshold || up - woven > threshold && down - woven > threshold else {
                    continue
                }
                // ... and nearer its own field's samples two rows away than the kept ones: a thin line that is in
                // one row only stands apart from both fields, and is kept.
                let (ownAbove, ownBelow) = (sample(row - 2 >= 0 ? row - 2 : row, column), sample(row + 2 < plane.height ? row + 2 : row, column))
                guard abs(woven - ownAbove) < abs(woven - up), abs(woven - ownBelow) < abs(woven - down) else { continue }
                func score(_ direction: Int) -> Int {
                    (-1...1).reduce(0) { $0 + abs(sample(above, column + $1 + direction) - sample(below, column + $1 - direction)) }
                }
                func joined(_ direction: Int) -> Int {
                    (sample(above, column + direction) + sample(below, column - direction) + 1) >> 1
                }
                var best = score(0)
                var value = joined(0)
                for directions in [[-1, -2], [1, 2]] {
                    for direction in directions {
                        let candidate = score(direction)
                        guard candidate < best else { break }
                        (best, value) = (candidate, joined(direction))
                    }
                }
                let at = row * plane.bytesPerRow + column * bytesPerSample
                data[at] = UInt8(truncatingIfNeeded: value)
                if bytesPerSample == 2 { data[at + 1] = UInt8(truncatingIfNeeded: value >> 8) }
            }
        }
        return DecodedFrame.Plane(width: plane.width, height: plane.height, bytesPerRow: plane.bytesPerRow, data: data)
    }
}
