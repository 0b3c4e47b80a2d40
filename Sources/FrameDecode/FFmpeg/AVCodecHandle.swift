#if FFmpegDecoders
internal import CAVCodec
import MP4Box

/// Owns one libavcodec decoder (`AVCodecContext`) with its packet and frame; `deinit` frees them. Every call into
/// libavcodec and libavutil is here.
final class AVCodecHandle {
    /// A failure, with libavcodec's text for it.
    struct Failure: Error {
        var text: String
    }

    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?

    /// Opens libavcodec's decoder `name` with `extradata` (the configuration record, or the stream's global header),
    /// the coded size the sample entry states, `threads` threads, and a ceiling of `maximumPixels` per picture (libavcodec
    /// refuses a frame header past it before allocating).
    /// - Throws: `Failure` when libavcodec has no such decoder or cannot open it.
    init(decoder name: String, extradata: [UInt8], width: Int, height: Int, threads: Int, maximumPixels: Int) throws(Failure) {
        _ = Self.quietLog
        guard let codec = avcodec_find_decoder_by_name(name) else { throw Failure(text: "libavcodec has no decoder \(name)") }
        guard let context = avcodec_alloc_context3(codec), let packet = av_packet_alloc(), let frame = av_frame_alloc() else {
            throw Failure(text: "out of memory")
        }
        (self.context, self.packet, self.frame) = (context, packet, frame)
        if !extradata.isEmpty {
            // libavcodec reads up to AV_INPUT_BUFFER_PADDING_SIZE bytes past the end: zeroed padding, freed with the context.
            guard let buffer = av_mallocz(extradata.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else { throw Failure(text: "out of memory") }
            extradata.withUnsafeBytes { bytes in
                if let source = bytes.baseAddress { buffer.copyMemory(from: source, byteCount: extradata.count) }
            }
            context.pointee.extradata = buffer.assumingMemoryBound(to: UInt8.self)
            context.pointee.extradata_size = Int32(clamping: extradata.count)
        }
        context.pointee.coded_width = Int32(clamping: width)
        context.pointee.coded_height = Int32(clamping: height)
        context.pointee.width = Int32(clamping: width)
        context.pointee.height = Int32(clamping: height)
        context.pointee.thread_count = Int32(clamping: max(1, threads))
        context.pointee.max_pixels = Int64(maximumPixels)
        let status = avcodec_open2(context, codec, nil)
        guard status >= 0 else { throw Failure(text: "could not open \(name): \(Self.text(status))") }
    }

    deinit {
        avcodec_free_context(&context)
        av_packet_free(&packet)
        av_frame_free(&frame)
    }

    /// libavcodec writes what it notices to standard error unless told otherwise: a library says it through its errors
    /// (once, for the process: libavutil's log level is global).
    private static let quietLog: Void = av_log_set_level(AV_LOG_QUIET)

    /// libavcodec's version (`avcodec_version`: 59.37.100).
    static var libraryVersion: String {
        let version = avcodec_version()
        return "\(version >> 16).\(version >> 8 & 0xFF).\(version & 0xFF)"
    }

    /// Sends one sample's bytes, tagged `tag`, and takes the pictures that are ready.
    func decode(_ bytes: [UInt8], tag: Int64) -> Result<[LibraryPicture], Failure> {
        guard let context, let packet else { return .failure(Failure(text: "no decoder")) }
        guard av_new_packet(packet, Int32(clamping: bytes.count)) >= 0, let data = packet.pointee.data else {
            return .failure(Failure(text: "out of memory"))
        }
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { data.update(from: base, count: bytes.count) }
        }
        packet.pointee.pts = tag
        packet.pointee.dts = tag
        let status = avcodec_send_packet(context, packet)
        av_packet_unref(packet)
        guard status >= 0 else { return .failure(Failure(text: Self.text(status))) }
        return receive()
    }

    /// Tells the decoder no more samples come and takes every picture it held.
    func drain() -> Result<[LibraryPicture], Failure> {
        guard let context else { return .failure(Failure(text: "no decoder")) }
        let status = avcodec_send_packet(context, nil)
        guard status >= 0 || status == thumbs_averror_eof() else { return .failure(Failure(text: Self.text(status))) }
        return receive()
    }

    /// Forgets every picture and reference (`avcodec_flush_buffers`), ready for a new keyframe.
    func flushBuffers() {
        if let context { avcodec_flush_buffers(context) }
    }

    /// The pictures libavcodec has ready.
    private func receive() -> Result<[LibraryPicture], Failure> {
        guard let context, let frame else { return .failure(Failure(text: "no decoder")) }
        var pictures: [LibraryPicture] = []
        while true {
            let status = avcodec_receive_frame(context, frame)
            if status == thumbs_averror_again() || status == thumbs_averror_eof() { break }
            guard status >= 0 else { return .failure(Failure(text: Self.text(status))) }
            defer { av_frame_unref(frame) }
            switch Self.picture(of: frame.pointee) {
            case .success(let picture): pictures.append(picture)
            case .failure(let failure): return .failure(failure)
            }
        }
        return .success(pictures)
    }

    /// A decoded frame's planes copied out: planar Y'CbCr (4:2:0, 4:2:2, 4:4:4, grey; other chroma samplings widened to
    /// 4:4:4) or planar G, B, R, 8 to 16 bits little-endian, with alpha where the format has it.
    private static func picture(of frame: AVFrame) -> Result<LibraryPicture, Failure> {
        let format = AVPixelFormat(rawValue: frame.format)
        guard let descriptor = av_pix_fmt_desc_get(format)?.pointee else {
            return .failure(Failure(text: "a frame of unknown pixel format \(frame.format)"))
        }
        let name = String(cString: descriptor.name)
        let unsupported = UInt64(AV_PIX_FMT_FLAG_BE) | UInt64(AV_PIX_FMT_FLAG_PAL) | UInt64(AV_PIX_FMT_FLAG_BITSTREAM)
            | UInt64(AV_PIX_FMT_FLAG_HWACCEL) | UInt64(AV_PIX_FMT_FLAG_FLOAT) | UInt64(AV_PIX_FMT_FLAG_BAYER)
        let components = Int(descriptor.nb_components)
        let layout = withUnsafeBytes(of: descriptor.comp) { Array($0.bindMemory(to: AVComponentDescriptor.self)) }
        let depth = Int(layout[0].depth)
        guard descriptor.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0, descriptor.flags & unsupported == 0,
              (0..<components).allSatisfy({ layout[$0].plane == Int32($0) && layout[$0].shift == 0 && layout[$0].offset == 0 }),
              (8...16).contains(depth), layout[0].step == (depth > 8 ? 2 : 1) else {
            return .failure(Failure(text: "frames in pixel format \(name) are not converted here"))
        }
        let bytesPerSample = depth > 8 ? 2 : 1
        let (width, height) = (Int(frame.width), Int(frame.height))
        let (data, strides) = (withUnsafeBytes(of: frame.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)) },
                               withUnsafeBytes(of: frame.linesize) { Array($0.bindMemory(to: Int32.self)) })
        let isRGB = descriptor.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
        let colourPlanes = components >= 3 ? 3 : 1
        let hasAlpha = descriptor.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
        let (chromaShiftX, chromaShiftY) = (Int(descriptor.log2_chroma_w), Int(descriptor.log2_chroma_h))
        var planes: [DecodedFrame.Plane] = []
        for index in 0..<components {
            let isChroma = !isRGB && colourPlanes == 3 && (index == 1 || index == 2)
            let planeWidth = isChroma ? -((-width) >> chromaShiftX) : width
            let planeHeight = isChroma ? -((-height) >> chromaShiftY) : height
            guard let source = data[index], strides[index] > 0 else {
                return .failure(Failure(text: "a \(name) frame without plane \(index)"))
            }
            planes.append(LibraryPicture.copyPlane(from: UnsafePointer(source), stride: Int(strides[index]), width: planeWidth, height: planeHeight,
                                                   bytesPerSample: bytesPerSample))
        }
        var chroma: DecodedFrame.ChromaFormat = colourPlanes == 1 ? .monochrome : .yuv444
        if !isRGB, colourPlanes == 3 {
            switch (chromaShiftX, chromaShiftY) {
            case (1, 1): chroma = .yuv420
            case (1, 0): chroma = .yuv422
            case (0, 0): chroma = .yuv444
            default:
                // 4:1:1, 4:1:0, 4:4:0: each chroma sample repeated over the luma samples it stands for.
                for index in 1...2 {
                    planes[index] = ChromaWidening.widened(planes[index], toWidth: width, height: height, bytesPerSample: bytesPerSample)
                }
            }
        }
        let alpha = hasAlpha && components == colourPlanes + 1 ? planes.removeLast() : nil
        let fullRange = frame.color_range == AVCOL_RANGE_JPEG || name.hasPrefix("yuvj") || isRGB
        let colour = ColourDescription(primaries: Int(frame.color_primaries.rawValue), transfer: Int(frame.color_trc.rawValue),
                                       matrix: isRGB ? 0 : Int(frame.colorspace.rawValue), fullRange: fullRange)
        var picture = LibraryPicture(planes: planes, bitDepth: depth, chromaFormat: chroma, sampleIndex: Int(frame.best_effort_timestamp),
                                     streamColour: colour,
                                     streamStatesRange: frame.color_range != AVCOL_RANGE_UNSPECIFIED || name.hasPrefix("yuvj") || isRGB)
        picture.alpha = alpha
        if frame.interlaced_frame != 0 { picture.fieldOrder = frame.top_field_first != 0 ? .topFieldFirst : .bottomFieldFirst }
        return .success(picture)
    }

    /// libavutil's text for an error code.
    private static func text(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        guard av_strerror(code, &buffer, buffer.count) == 0 else { return "error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
#endif
