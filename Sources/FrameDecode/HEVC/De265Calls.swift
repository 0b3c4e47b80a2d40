internal import CDe265
import MP4Box

/// The one owner of a libde265 decoder context; every call into libde265 goes through here.
///
/// Pictures are copied out as soon as libde265 hands them over (its images are
/// valid only until the next call). `deinit` frees the context, on every path.
final class De265Handle {
    /// What one step of decoding reported.
    enum Status {
        case ok, needsInput, finished
        case failed(String)
    }

    private let context: OpaquePointer

    /// Creates a context; `workerThreads` > 0 starts that many decoding threads.
    init(workerThreads: Int) throws(DecodeError) {
        guard let created = de265_new_decoder() else {
            throw DecodeError(.decoderUnavailable, decoder: "libde265", "could not create a decoder")
        }
        context = OpaquePointer(created)
        de265_set_verbosity(0)
        de265_set_parameter_bool(UnsafeMutableRawPointer(context), DE265_DECODER_PARAM_SUPPRESS_FAULTY_PICTURES, 1)
        if workerThreads > 0 {
            let error = de265_start_worker_threads(UnsafeMutableRawPointer(context), Int32(workerThreads))
            guard de265_isOK(error) != 0 else {
                de265_free_decoder(UnsafeMutableRawPointer(context))
                throw DecodeError(.decoderUnavailable, decoder: "libde265", "could not start threads: \(Self.text(error))")
            }
        }
    }

    deinit {
        de265_free_decoder(UnsafeMutableRawPointer(context))
    }

    /// Pushes one NAL unit (no start code, emulation prevention bytes intact) tagged with `timestamp`.
    func push(nal: ArraySlice<UInt8>, timestamp: Int64) -> String? {
        let error = nal.withUnsafeBufferPointer { buffer in
            de265_push_NAL(UnsafeMutableRawPointer(context), buffer.baseAddress, Int32(buffer.count), timestamp, nil)
        }
        return de265_isOK(error) != 0 ? nil : Self.text(error)
    }

    /// Marks the end of one access unit.
    func endOfFrame() {
        de265_push_end_of_frame(UnsafeMutableRawPointer(context))
    }

    /// Marks the end of the stream, so every held picture comes out.
    func endOfStream() -> String? {
        let error = de265_flush_data(UnsafeMutableRawPointer(context))
        return de265_isOK(error) != 0 ? nil : Self.text(error)
    }

    /// Forgets every picture and reference.
    func reset() {
        de265_reset(UnsafeMutableRawPointer(context))
    }

    /// Decodes what has been pushed, collecting pictures as they come out.
    func decodePending() -> (pictures: [LibraryPicture], status: Status) {
        var pictures: [LibraryPicture] = []
        var steps = 0
        while true {
            steps += 1
            var more: Int32 = 0
            let error = de265_decode(UnsafeMutableRawPointer(context), &more)
            pictures += takePictures()
            if error == DE265_ERROR_WAITING_FOR_INPUT_DATA { return (pictures, .needsInput) }
            if error == DE265_ERROR_IMAGE_BUFFER_FULL { continue }
            if de265_isOK(error) == 0 { return (pictures, .failed(Self.text(error))) }
            if more == 0 { return (pictures, .finished) }
            if steps > 1_000_000 { return (pictures, .failed("decoder made no progress")) }
        }
    }

    /// The warnings libde265 queued since the last call, as text.
    func warnings() -> [String] {
        var texts: [String] = []
        while texts.count < 64 {
            let warning = de265_get_warning(UnsafeMutableRawPointer(context))
            if warning == DE265_OK { break }
            texts.append(Self.text(warning))
        }
        return texts
    }

    private func takePictures() -> [LibraryPicture] {
        var pictures: [LibraryPicture] = []
        while let image = de265_get_next_picture(UnsafeMutableRawPointer(context)) {
            pictures.append(copy(image))
        }
        return pictures
    }

    private func copy(_ image: OpaquePointer) -> LibraryPicture {
        let chroma = DecodedFrame.ChromaFormat(rawValue: Int(de265_get_chroma_format(image).rawValue)) ?? .yuv420
        let bitDepth = Int(de265_get_bits_per_pixel(image, 0))
        let bytesPerSample = bitDepth > 8 ? 2 : 1
        var planes: [DecodedFrame.Plane] = []
        for channel in 0..<(chroma == .monochrome ? 1 : 3) {
            let width = Int(de265_get_image_width(image, Int32(channel)))
            let height = Int(de265_get_image_height(image, Int32(channel)))
            var stride: Int32 = 0
            guard let source = de265_get_image_plane(image, Int32(channel), &stride), width > 0, height > 0 else { continue }
            planes.append(LibraryPicture.copyPlane(from: source, stride: Int(stride), width: width, height: height,
                                                   bytesPerSample: bytesPerSample))
        }
        let colour = ColourDescription(primaries: Int(de265_get_image_colour_primaries(image)),
                                       transfer: Int(de265_get_image_transfer_characteristics(image)),
                                       matrix: Int(de265_get_image_matrix_coefficients(image)),
                                       fullRange: de265_get_image_full_range_flag(image) != 0)
        return LibraryPicture(planes: planes, bitDepth: bitDepth, chromaFormat: chroma,
                              sampleIndex: Int(de265_get_image_PTS(image)), streamColour: colour,
                              streamStatesRange: colour.fullRange)
    }

    private static func text(_ error: de265_error) -> String {
        guard let text = de265_get_error_text(error) else { return "error \(error.rawValue)" }
        return String(cString: text)
    }

    /// The version of the libde265 linked (`de265_get_version`).
    static var libraryVersion: String {
        de265_get_version().map { String(cString: $0) } ?? "unknown"
    }
}
