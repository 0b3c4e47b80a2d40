// DecodedFrame and its Plane have no public initialiser; the memberwise ones are internal to FrameDecode.
// Until FrameDecode gets public ones, the synthetic frames here are made through @testable.
@testable import FrameDecode
import MP4Box
import Thumbs

/// Small synthetic decoded frames for rendering tests.
enum TestFrames {
    /// A frame from planes of samples given row by row (8-bit: one byte each; above 8 bits: little-endian pairs).
    static func frame(luma: [[Int]], cb: [[Int]]? = nil, cr: [[Int]]? = nil, bitDepth: Int = 8,
                      chromaFormat: DecodedFrame.ChromaFormat = .yuv420,
                      colour: ColourDescription = bt709Limited) -> DecodedFrame {
        var planes = [plane(luma, bitDepth: bitDepth)]
        if let cb, let cr {
            planes.append(plane(cb, bitDepth: bitDepth))
            planes.append(plane(cr, bitDepth: bitDepth))
        }
        return DecodedFrame(planes: planes, bitDepth: bitDepth, chromaFormat: cb == nil ? .monochrome : chromaFormat,
                            colour: colour, sampleIndex: 0, compositionTime: 0)
    }

    /// A `width` x `height` frame of one colour.
    static func uniform(width: Int, height: Int, y: Int, cb: Int, cr: Int, bitDepth: Int = 8,
                        chromaFormat: DecodedFrame.ChromaFormat = .yuv420, colour: ColourDescription = bt709Limited) -> DecodedFrame {
        let (chromaWidth, chromaHeight) = switch chromaFormat {
        case .yuv420: ((width + 1) / 2, (height + 1) / 2)
        case .yuv422: ((width + 1) / 2, height)
        default: (width, height)
        }
        return frame(luma: Array(repeating: Array(repeating: y, count: width), count: height),
                     cb: Array(repeating: Array(repeating: cb, count: chromaWidth), count: chromaHeight),
                     cr: Array(repeating: Array(repeating: cr, count: chromaWidth), count: chromaHeight),
                     bitDepth: bitDepth, chromaFormat: chromaFormat, colour: colour)
    }

    /// One plane, rows packed, with `padding` bytes after each row.
    static func plane(_ rows: [[Int]], bitDepth: Int, padding: Int = 3) -> DecodedFrame.Plane {
        let width = rows.first?.count ?? 0
        let bytesPerSample = bitDepth > 8 ? 2 : 1
        let bytesPerRow = width * bytesPerSample + padding
        var data = [UInt8](repeating: 0xEE, count: bytesPerRow * rows.count)
        for (y, row) in rows.enumerated() {
            for (x, value) in row.enumerated() {
                let offset = y * bytesPerRow + x * bytesPerSample
                data[offset] = UInt8(truncatingIfNeeded: value)
                if bytesPerSample == 2 { data[offset + 1] = UInt8(truncatingIfNeeded: value >> 8) }
            }
        }
        return DecodedFrame.Plane(width: width, height: rows.count, bytesPerRow: bytesPerRow, data: data)
    }

    /// BT.709, limited range: what an untagged stream is taken as.
    static let bt709Limited = ColourDescription(primaries: 1, transfer: 1, matrix: 1, fullRange: false)
}
