internal import CTurboJPEG
import MP4Box

/// Motion JPEG (`jpeg`, `mjpa`, `AVDJ`, `dmb1`; Matroska's `V_MJPEG`) through libjpeg-turbo: every sample is one
/// intra-coded picture, or two fields (two JPEG images, one after the other), which are woven into one frame line by
/// line in the order the track's `fiel` box gives (top field first when it says nothing), and the frame says which
/// field comes first (the renderer deinterlaces it).
///
/// Pictures come out as the JPEG codes them: 8-bit Y'CbCr planes at full range (JFIF), 4:2:0, 4:2:2, 4:4:4 or grey;
/// BT.601 unless the track's colr box names another matrix. JPEGs of other samplings (4:4:0, 4:1:1) or of RGB come out
/// as RGB planes (matrix 0). Frames lacking Huffman tables (AVI1) decode with JPEG's standard ones, as libjpeg-turbo
/// supplies them.
public final class MotionJPEGDecoder: VideoDecoder {
    private let handle: TurboJPEGHandle
    private let colour: ColourDescription?
    private let limits: DecoderLimits
    private let bottomFieldFirst: Bool

    /// A decoder for `configuration` (Motion JPEG); `bottomFieldFirst` from the track's `fiel` box.
    /// - Throws: `DecodeError` `unsupportedCodec` for another codec, `decoderUnavailable` when libjpeg-turbo cannot make
    ///   an instance.
    public init(configuration: CodecConfiguration, colour: ColourDescription?, bottomFieldFirst: Bool = false,
                limits: DecoderLimits = DecoderLimits()) throws(DecodeError) {
        guard configuration.codec == .motionJPEG else {
            throw DecodeError(.unsupportedCodec, "MotionJPEGDecoder decodes Motion JPEG, not \(configuration.codingFormat)")
        }
        guard let handle = TurboJPEGHandle(compressing: false) else {
            throw DecodeError(.decoderUnavailable, decoder: "libjpeg-turbo", "could not make a decompressor")
        }
        self.handle = handle
        self.colour = colour
        self.limits = limits
        self.bottomFieldFirst = bottomFieldFirst
    }

    public func decode(_ input: DecoderInput) throws(DecodeError) -> [DecodedFrame] {
        let index = input.sample.index
        let images = JPEGImages.ranges(in: input.bytes)
        guard !images.isEmpty else {
            throw DecodeError(.malformedSample, sampleIndex: index, "the sample holds no JPEG image (no start of image marker)")
        }
        // Two images of one size are a frame's fields; with a second of another size, or one libjpeg-turbo refuses (a
        // damaged field, as ffmpeg shows what it can), the first is the picture.
        var picture = try picture(Array(input.bytes[images[0]]), sampleIndex: index)
        var fieldOrder: DecodedFrame.FieldOrder?
        if images.count == 2, let second = try? self.picture(Array(input.bytes[images[1]]), sampleIndex: index),
           second.isField(of: picture) {
            picture = bottomFieldFirst ? second.woven(below: picture) : picture.woven(below: second)
            fieldOrder = bottomFieldFirst ? .bottomFieldFirst : .topFieldFirst
        }
        var streamColour = ColourDescription(primaries: 2, transfer: 2, matrix: picture.isRGB ? 0 : 6, fullRange: true)
        if !picture.isRGB, let colour { streamColour = colour.filling(from: streamColour) }
        streamColour.fullRange = true  // JPEG's samples use the whole range, whatever the container says
        var frame = DecodedFrame(planes: picture.planes, bitDepth: 8, chromaFormat: picture.chromaFormat, colour: streamColour,
                                 sampleIndex: index, compositionTime: input.sample.compositionTime)
        frame.fieldOrder = fieldOrder
        return [frame]
    }

    public func flush() throws(DecodeError) -> [DecodedFrame] { [] }

    public func reset() throws(DecodeError) {}

    /// One decoded JPEG image: its planes as libjpeg-turbo gave them.
    private struct Picture {
        var planes: [DecodedFrame.Plane]
        var chromaFormat: DecodedFrame.ChromaFormat
        var isRGB: Bool

        /// Whether this image and `other` are the two fields of one frame: the same size and layout.
        func isField(of other: Picture) -> Bool {
            chromaFormat == other.chromaFormat && isRGB == other.isRGB
                && zip(planes, other.planes).allSatisfy { $0.width == $1.width && $0.height == $1.height }
                && planes.count == other.planes.count
        }

        /// The frame whose even rows are this field's and odd rows `bottom`'s, plane by plane.
        func woven(below bottom: Picture) -> Picture {
            var woven = self
            woven.planes = zip(planes, bottom.planes).map { top, bottom in
                var data = [UInt8](repeating: 0, count: top.width * (top.height + bottom.height))
                for row in 0..<(top.height + bottom.height) {
                    let field = row % 2 == 0 ? top : bottom
                    let start = (row / 2) * field.bytesPerRow
                    guard row / 2 < field.height else { continue }
                    data.replaceSubrange(row * top.width..<(row + 1) * top.width, with: field.data[start..<start + top.width])
                }
                return DecodedFrame.Plane(width: top.width, height: top.height + bottom.height, bytesPerRow: top.width, data: data)
            }
            return woven
        }
    }

    /// Decodes one JPEG image: to its own Y'CbCr planes where the frame model has its sampling, else to RGB planes.
    private func picture(_ bytes: [UInt8], sampleIndex: Int) throws(DecodeError) -> Picture {
        guard let header = handle.header(of: bytes) else {
            throw DecodeError(.decoderRejected, decoder: "libjpeg-turbo", sampleIndex: sampleIndex, "refused the image header: \(handle.message)")
        }
        guard header.width > 0, header.height > 0 else {
            throw DecodeError(.malformedSample, sampleIndex: sampleIndex, "the JPEG image is \(header.width)x\(header.height)")
        }
        try limits.check(width: header.width, height: header.height, sampleIndex: sampleIndex, by: "the JPEG image's header")
        let (width, height, subsampling, colourspace) = (Int32(header.width), Int32(header.height), header.subsampling, header.colourspace)
        let format: DecodedFrame.ChromaFormat? = switch UInt32(subsampling) {
        case TJSAMP_420.rawValue: .yuv420
        case TJSAMP_422.rawValue: .yuv422
        case TJSAMP_444.rawValue: .yuv444
        case TJSAMP_GRAY.rawValue: .monochrome
        default: nil
        }
        if let format, UInt32(colourspace) == TJCS_YCbCr.rawValue || UInt32(colourspace) == TJCS_GRAY.rawValue {
            return try yuvPicture(bytes, width: width, height: height, subsampling: subsampling, format: format, sampleIndex: sampleIndex)
        }
        return try rgbPicture(bytes, header: header, sampleIndex: sampleIndex)
    }

    private func yuvPicture(_ bytes: [UInt8], width: Int32, height: Int32, subsampling: Int32, format: DecodedFrame.ChromaFormat,
                            sampleIndex: Int) throws(DecodeError) -> Picture {
        let count = format == .monochrome ? 1 : 3
        let sizes = (0..<Int32(count)).map { component in
            (width: Int(tjPlaneWidth(component, width, subsampling)), height: Int(tjPlaneHeight(component, height, subsampling)))
        }
        let offsets = sizes.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1.width * $1.height) }
        var buffer = [UInt8](repeating: 0, count: offsets[count])
        var strides = sizes.map { Int32($0.width) }
        let status = buffer.withUnsafeMutableBufferPointer { out -> Int32 in
            guard let base = out.baseAddress else { return -1 }
            var pointers: [UnsafeMutablePointer<UInt8>?] = offsets.prefix(count).map { base + $0 }
            return pointers.withUnsafeMutableBufferPointer { list in
                bytes.withUnsafeBufferPointer { source in
                    tjDecompressToYUVPlanes(handle.handle, source.baseAddress, UInt(source.count), list.baseAddress, width, &strides,
                                            height, TJFLAG_ACCURATEDCT)
                }
            }
        }
        guard status == 0 else {
            throw DecodeError(.decoderRejected, decoder: "libjpeg-turbo", sampleIndex: sampleIndex, "refused the image: \(handle.message)")
        }
        let planes = sizes.indices.map { index in
            DecodedFrame.Plane(width: sizes[index].width, height: sizes[index].height, bytesPerRow: sizes[index].width,
                               data: Array(buffer[offsets[index]..<offsets[index + 1]]))
        }
        return Picture(planes: planes, chromaFormat: format, isRGB: false)
    }

    /// The image as RGB, stored as G, B and R planes (matrix 0) so that the renderer reads it as any 4:4:4 frame.
    private func rgbPicture(_ bytes: [UInt8], header: TurboJPEGHandle.Header, sampleIndex: Int) throws(DecodeError) -> Picture {
        guard let pixels = handle.rgbPixels(of: bytes, header: header) else {
            throw DecodeError(.decoderRejected, decoder: "libjpeg-turbo", sampleIndex: sampleIndex, "refused the image: \(handle.message)")
        }
        let (columns, rows) = (header.width, header.height)
        return Picture(planes: RGBPlanes.planes(interleaved: pixels, width: columns, height: rows, channels: 3),
                       chromaFormat: .yuv444, isRGB: true)
    }
}
