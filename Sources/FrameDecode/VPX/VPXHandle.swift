internal import CVpx
import MP4Box

/// The one owner of a libvpx decoder context (VP8 or VP9); every call into libvpx goes through here.
///
/// Pictures are copied out as soon as libvpx hands them over (they are valid until the next call). `deinit` destroys
/// the context, on every path.
final class VPXHandle {
    private var context = vpx_codec_ctx_t()
    private var isOpen = false
    let codec: CodecConfiguration.Codec

    /// Opens a context for `codec` (`.vp8` or `.vp9`) that may use `threads` threads.
    init(codec: CodecConfiguration.Codec, threads: Int) throws(DecodeError) {
        self.codec = codec
        let interface = codec == .vp8 ? vpx_codec_vp8_dx() : vpx_codec_vp9_dx()
        let result = thumbs_vpx_dec_init(&context, interface, UInt32(max(1, min(threads, 16))))
        guard result == VPX_CODEC_OK else {
            throw DecodeError(.decoderUnavailable, decoder: "libvpx", "could not open a \(codec.displayName) decoder: \(Self.text(result))")
        }
        isOpen = true
    }

    deinit {
        if isOpen { vpx_codec_destroy(&context) }
    }

    /// Decodes one frame (a VP9 superframe counts as one), tagged with `sampleIndex`, and takes the pictures ready.
    /// - Returns: the pictures, or what libvpx said.
    func decode(_ bytes: [UInt8], sampleIndex: Int) -> Result<[LibraryPicture], Failure> {
        let tag = UnsafeMutableRawPointer(bitPattern: sampleIndex + 1)
        let result = bytes.withUnsafeBufferPointer { buffer in
            vpx_codec_decode(&context, buffer.baseAddress, UInt32(buffer.count), tag, 0)
        }
        guard result == VPX_CODEC_OK else { return .failure(failure(result)) }
        return .success(takePictures())
    }

    /// Ends the stream: the pictures libvpx still holds.
    func flush() -> Result<[LibraryPicture], Failure> {
        let result = vpx_codec_decode(&context, nil, 0, nil, 0)
        guard result == VPX_CODEC_OK else { return .failure(failure(result)) }
        return .success(takePictures())
    }

    private func takePictures() -> [LibraryPicture] {
        var pictures: [LibraryPicture] = []
        var iterator: vpx_codec_iter_t?
        while let image = vpx_codec_get_frame(&context, &iterator) {
            pictures.append(copy(image.pointee))
        }
        return pictures
    }

    /// What libvpx reported: its error and the detail it gave.
    struct Failure: Error {
        var text: String
    }

    private func failure(_ result: vpx_codec_err_t) -> Failure {
        let detail = vpx_codec_error_detail(&context).map { String(cString: $0) }
        return Failure(text: Self.text(result) + (detail.map { " (\($0))" } ?? ""))
    }

    private func copy(_ image: vpx_image_t) -> LibraryPicture {
        let width = Int(image.d_w)
        let height = Int(image.d_h)
        let highBitDepth = image.fmt.rawValue & UInt32(VPX_IMG_FMT_HIGHBITDEPTH) != 0
        let bitDepth = highBitDepth ? Int(image.bit_depth) : 8
        let bytesPerSample = highBitDepth ? 2 : 1
        let xShift = Int(image.x_chroma_shift)
        let yShift = Int(image.y_chroma_shift)
        let chroma: DecodedFrame.ChromaFormat = switch (xShift, yShift) {
        case (1, 1): .yuv420
        case (1, 0): .yuv422
        default: .yuv444
        }
        let chromaSize = ((width + (1 << xShift) - 1) >> xShift, (height + (1 << yShift) - 1) >> yShift)
        var planes: [DecodedFrame.Plane] = []
        let pointers = [image.planes.0, image.planes.1, image.planes.2]
        let strides = [image.stride.0, image.stride.1, image.stride.2]
        for channel in 0 ..< 3 {
            let (planeWidth, planeHeight) = channel == 0 ? (width, height) : chromaSize
            guard let source = pointers[channel], planeWidth > 0, planeHeight > 0 else { continue }
            planes.append(LibraryPicture.copyPlane(from: source, stride: Int(strides[channel]), width: planeWidth,
                                                   height: planeHeight, bytesPerSample: bytesPerSample))
        }
        // VP9's colour space names a matrix (ffmpeg's mapping); VP8 states none. Both state the range.
        let matrix: Int = switch image.cs {
        case VPX_CS_BT_601: 5
        case VPX_CS_BT_709: 1
        case VPX_CS_SMPTE_170: 6
        case VPX_CS_SMPTE_240: 7
        case VPX_CS_BT_2020: 9
        case VPX_CS_SRGB: 0
        default: ColourDescription.unspecifiedCode
        }
        let colour = ColourDescription(primaries: ColourDescription.unspecifiedCode, transfer: ColourDescription.unspecifiedCode,
                                       matrix: matrix, fullRange: image.range == VPX_CR_FULL_RANGE)
        let tag = Int(bitPattern: image.user_priv) - 1
        return LibraryPicture(planes: planes, bitDepth: bitDepth, chromaFormat: chroma, sampleIndex: tag,
                              streamColour: colour, streamStatesRange: codec == .vp9)
    }

    private static func text(_ result: vpx_codec_err_t) -> String {
        vpx_codec_err_to_string(result).map { String(cString: $0) } ?? "error \(result.rawValue)"
    }

    /// The version of the libvpx linked (`vpx_codec_version_str`).
    static var libraryVersion: String {
        vpx_codec_version_str().map { String(cString: $0) } ?? "unknown"
    }
}
