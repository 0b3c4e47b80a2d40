import FrameDecode

/// A decoded frame's geometry, checked.
struct SourcePicture {
    let width: Int
    let height: Int
    let bytesPerSample: Int
    /// Luma samples per chroma sample across and down, or nil for a monochrome picture.
    let chromaSubsampling: (x: Double, y: Double)?

    /// - Throws: `ThumbnailError` `invalidFrame` for a bit depth outside 1...16, a plane count that does not
    ///   match the chroma format, or a plane whose rows do not fit its data.
    init(_ frame: DecodedFrame) throws(ThumbnailError) {
        guard (1...16).contains(frame.bitDepth) else {
            throw ThumbnailError(.invalidFrame, "bit depth \(frame.bitDepth) is not 1...16")
        }
        bytesPerSample = frame.bitDepth > 8 ? 2 : 1
        let expectedPlanes = frame.chromaFormat == .monochrome ? 1 : 3
        guard frame.planes.count >= expectedPlanes else {
            throw ThumbnailError(.invalidFrame, "\(frame.pixelFormatName) needs \(expectedPlanes) planes, the frame has \(frame.planes.count)")
        }
        for plane in frame.planes.prefix(expectedPlanes) where !AreaScaler.fits(plane, bytesPerSample: bytesPerSample) {
            throw ThumbnailError(.invalidFrame, "a \(plane.width)x\(plane.height) plane with \(plane.bytesPerRow) bytes per row "
                                 + "does not fit its \(plane.data.count) bytes")
        }
        width = frame.width
        height = frame.height
        chromaSubsampling = switch frame.chromaFormat {
        case .monochrome: nil
        case .yuv420: (2, 2)
        case .yuv422: (2, 1)
        case .yuv444: (1, 1)
        }
    }
}
