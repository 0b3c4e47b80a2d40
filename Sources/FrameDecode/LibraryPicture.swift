import MP4Box

/// A picture copied out of a decoder library (libde265, dav1d, libavcodec) into Swift-owned planes, before it becomes a
/// `DecodedFrame`: the libraries' pictures are valid only until their next call.
struct LibraryPicture {
    var planes: [DecodedFrame.Plane]
    var bitDepth: Int
    var chromaFormat: DecodedFrame.ChromaFormat
    /// The sample index the picture's input was tagged with.
    var sampleIndex: Int
    /// The colour code points the bitstream gave (the SPS's VUI, AV1's sequence header).
    var streamColour: ColourDescription
    /// Whether `streamColour.fullRange` is what the bitstream states, not a default: always for AV1's sequence
    /// header; for HEVC only when it says full, as libde265 gives 0 both for a limited-range flag and for none.
    var streamStatesRange: Bool
    /// The picture's alpha plane, where the library gives one (libavcodec's formats with alpha).
    var alpha: DecodedFrame.Plane? = nil
    /// Which field comes first, for an interlaced picture (libavcodec says so).
    var fieldOrder: DecodedFrame.FieldOrder? = nil

    /// One plane of `height` rows of `width` samples, `stride` bytes apart in the library's memory, packed.
    static func copyPlane(from source: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int,
                          bytesPerSample: Int) -> DecodedFrame.Plane {
        let rowBytes = width * bytesPerSample
        let data = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, count in
            guard let base = buffer.baseAddress else { count = 0; return }
            for row in 0..<height {
                (base + row * rowBytes).update(from: source + row * stride, count: rowBytes)
            }
            count = rowBytes * height
        }
        return DecodedFrame.Plane(width: width, height: height, bytesPerRow: rowBytes, data: data)
    }

    /// The frame, with the container's colour (colr) where it states one and the stream's elsewhere.
    /// The range is the bitstream's where it states one, as `MovieTrack.colour` decides it.
    func frame(containerColour: ColourDescription?, compositionTime: Int64) -> DecodedFrame {
        var colour = containerColour?.filling(from: streamColour) ?? streamColour
        if streamStatesRange { colour.fullRange = streamColour.fullRange }
        var frame = DecodedFrame(planes: planes, bitDepth: bitDepth, chromaFormat: chromaFormat, colour: colour,
                                 sampleIndex: sampleIndex, compositionTime: compositionTime)
        frame.alpha = alpha
        frame.fieldOrder = fieldOrder
        return frame
    }
}
