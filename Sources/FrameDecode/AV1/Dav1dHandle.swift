internal import CDav1d
import MP4Box

/// The one owner of a dav1d decoder context; every call into dav1d goes through here.
///
/// Pictures are copied out and released as soon as dav1d hands them over. `deinit` closes the context, on every path.
final class Dav1dHandle {
    private var context: OpaquePointer?

    /// Opens a context. `threads` 1 decodes on the calling thread with no frame delay (a picture per temporal unit as
    /// soon as it is sent); more lets dav1d use that many threads. `frameSizeLimit` is the most pixels per frame dav1d
    /// accepts from any frame header.
    init(threads: Int, frameSizeLimit: Int) throws(DecodeError) {
        var settings = Dav1dSettings()
        dav1d_default_settings(&settings)
        settings.n_threads = Int32(max(1, min(threads, 16)))
        settings.max_frame_delay = threads <= 1 ? 1 : 0
        settings.frame_size_limit = UInt32(clamping: frameSizeLimit)
        settings.all_layers = 0       // the highest spatial layer only, one picture per temporal unit, as ffmpeg does
        settings.apply_grain = 1      // film grain on, as ffmpeg's libdav1d decoder outputs by default
        settings.logger.callback = nil  // no lines on standard error: a refusal comes back as a typed error instead
        var opened: OpaquePointer?
        let result = dav1d_open(&opened, &settings)
        guard result == 0, let opened else {
            throw DecodeError(.decoderUnavailable, decoder: "dav1d", "could not open a decoder: \(Self.text(result))")
        }
        context = opened
    }

    deinit {
        dav1d_close(&context)
    }

    /// Sends one temporal unit (or configOBUs) tagged with `timestamp`, and takes every picture that is ready.
    /// - Returns: the pictures, or the failure dav1d reported.
    func send(_ bytes: [UInt8], timestamp: Int64) -> Result<[LibraryPicture], Failure> {
        guard !bytes.isEmpty else { return .success([]) }
        var data = Dav1dData()
        guard let buffer = dav1d_data_create(&data, bytes.count) else {
            return .failure(Failure(code: -1, text: "could not allocate \(bytes.count) bytes of input"))
        }
        bytes.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            buffer.update(from: base, count: source.count)
        }
        data.m.timestamp = timestamp
        var pictures: [LibraryPicture] = []
        var attempts = 0
        while data.sz > 0 {
            let result = dav1d_send_data(context, &data)
            if result == 0 { break }
            guard result == thumbs_dav1d_again(), attempts < 64 else {
                dav1d_data_unref(&data)
                return .failure(Failure(code: result, text: Self.text(result)))
            }
            attempts += 1
            switch takePictures() {
            case .success(let taken): pictures += taken
            case .failure(let failure):
                dav1d_data_unref(&data)
                return .failure(failure)
            }
        }
        return takePictures().map { pictures + $0 }
    }

    /// Takes every picture dav1d has ready (at the end of the stream: every picture it still holds).
    func takePictures() -> Result<[LibraryPicture], Failure> {
        var pictures: [LibraryPicture] = []
        while true {
            var picture = Dav1dPicture()
            let result = dav1d_get_picture(context, &picture)
            if result == thumbs_dav1d_again() { return .success(pictures) }
            guard result == 0 else { return .failure(Failure(code: result, text: Self.text(result))) }
            pictures.append(copy(picture))
            dav1d_picture_unref(&picture)
        }
    }

    /// What dav1d reported: its negative errno and the text for it.
    struct Failure: Error {
        var code: Int32
        var text: String
    }

    private func copy(_ picture: Dav1dPicture) -> LibraryPicture {
        let width = Int(picture.p.w)
        let height = Int(picture.p.h)
        let bitDepth = Int(picture.p.bpc)
        let bytesPerSample = bitDepth > 8 ? 2 : 1
        let chroma: DecodedFrame.ChromaFormat
        var chromaSize = (width: (width + 1) / 2, height: (height + 1) / 2)
        switch picture.p.layout {
        case DAV1D_PIXEL_LAYOUT_I400: chroma = .monochrome
        case DAV1D_PIXEL_LAYOUT_I422: chroma = .yuv422; chromaSize.height = height
        case DAV1D_PIXEL_LAYOUT_I444: chroma = .yuv444; chromaSize = (width, height)
        default: chroma = .yuv420
        }
        var planes: [DecodedFrame.Plane] = []
        for channel in 0..<(chroma == .monochrome ? 1 : 3) {
            let (planeWidth, planeHeight) = channel == 0 ? (width, height) : chromaSize
            let stride = channel == 0 ? picture.stride.0 : picture.stride.1
            let pointer = channel == 0 ? picture.data.0 : channel == 1 ? picture.data.1 : picture.data.2
            guard let source = pointer?.assumingMemoryBound(to: UInt8.self), planeWidth > 0, planeHeight > 0 else { continue }
            planes.append(LibraryPicture.copyPlane(from: source, stride: Int(stride), width: planeWidth, height: planeHeight,
                                                   bytesPerSample: bytesPerSample))
        }
        var colour = ColourDescription.unspecified
        if let header = picture.seq_hdr?.pointee {
            colour = ColourDescription(primaries: Int(header.pri.rawValue), transfer: Int(header.trc.rawValue),
                                       matrix: Int(header.mtrx.rawValue), fullRange: header.color_range != 0)
        }
        return LibraryPicture(planes: planes, bitDepth: bitDepth, chromaFormat: chroma,
                              sampleIndex: Int(picture.m.timestamp), streamColour: colour,
                              streamStatesRange: picture.seq_hdr != nil)
    }

    private static func text(_ result: Int32) -> String {
        switch -result {
        case EINVAL: "invalid data (EINVAL)"
        case ENOMEM: "out of memory (ENOMEM)"
        case ENOPROTOOPT: "a feature dav1d does not support (ENOPROTOOPT)"
        default: "error \(result)"
        }
    }

    /// The version of the dav1d linked (`dav1d_version`).
    static var libraryVersion: String {
        dav1d_version().map { String(cString: $0) } ?? "unknown"
    }
}
