import FrameDecode

/// Tells near-black or flat frames (fades, title cards) from real pictures, on a small luma histogram.
///
/// ffmpegthumbnailer's users ask for this: a thumbnail of a black frame says nothing. The frame counts
/// as dark when 95 % of its luma samples are within 10 % of the signal range above black, and as flat
/// when 90 % fall in 4 neighbouring bins of 64 (one colour).
enum DarkFrameDetector {
    /// Whether `frame` is near-black or flat.
    static func isDarkOrFlat(_ frame: DecodedFrame) -> Bool {
        guard let luma = frame.planes.first, luma.width > 0, luma.height > 0 else { return false }
        let shift = frame.bitDepth > 8 ? frame.bitDepth - 8 : 0
        var histogram = [Int](repeating: 0, count: 64)
        var samples = 0
        let stepX = max(1, luma.width / 64)
        let stepY = max(1, luma.height / 64)
        for y in stride(from: 0, to: luma.height, by: stepY) {
            for x in stride(from: 0, to: luma.width, by: stepX) {
                var value: Int
                if frame.bitDepth > 8 {
                    let index = y * luma.bytesPerRow + x * 2
                    value = (Int(luma.data[index]) | Int(luma.data[index + 1]) << 8) >> shift
                } else {
                    value = Int(luma.data[y * luma.bytesPerRow + x])
                }
                histogram[min(63, max(0, value) >> 2)] += 1
                samples += 1
            }
        }
        guard samples > 0 else { return false }
        let black = frame.colour.fullRange ? 0 : 16
        let darkLimit = (black + (frame.colour.fullRange ? 26 : 22)) >> 2
        let darkCount = histogram[0...min(63, darkLimit)].reduce(0, +)
        if Double(darkCount) >= 0.95 * Double(samples) { return true }
        var widest = 0
        for start in 0..<61 { widest = max(widest, histogram[start..<start + 4].reduce(0, +)) }
        return Double(widest) >= 0.9 * Double(samples)
    }
}
