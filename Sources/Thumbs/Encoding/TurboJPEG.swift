internal import CTurboJPEG
import FrameDecode
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every call into libjpeg-turbo (the TurboJPEG 2 API: `tjCompress2`, `tjDecompress2`).
enum TurboJPEG {
    /// The JPEG file of an 8-bit image (alpha is ignored) at `quality` 1...100.
    /// - Throws: `ThumbnailError` `encodingFailed` for a 16-bit or ill-formed image, or when libjpeg-turbo fails.
    static func compress(_ image: RGBImage, quality: Int, subsampling: JPEGEncoder.ChromaSubsampling) throws(ThumbnailError) -> [UInt8] {
        let (width, height, pitch) = try image.eightBitEncoderInput(for: "jpeg")
        guard let handle = TurboJPEGHandle(compressing: true) else {
            throw ThumbnailError(.encodingFailed, "jpeg: libjpeg-turbo could not make an instance")
        }
        let sampling: Int32 = switch subsampling {
        case .yuv420: Int32(TJSAMP_420.rawValue)
        case .yuv422: Int32(TJSAMP_422.rawValue)
        case .yuv444: Int32(TJSAMP_444.rawValue)
        }
        let pixelFormat = Int32(image.pixelFormat == .rgba8 ? TJPF_RGBX.rawValue : TJPF_RGB.rawValue)
        // tjBufSize is the worst case, so libjpeg-turbo never reallocates our buffer (TJFLAG_NOREALLOC).
        let bound = tjBufSize(width, height, sampling)
        guard bound != UInt(bitPattern: -1), let capacity = Int(exactly: bound) else {
            throw ThumbnailError(.encodingFailed, "jpeg: no buffer size for \(image.width)x\(image.height): \(handle.message)")
        }
        var output = [UInt8](repeating: 0, count: capacity)
        var size = UInt(capacity)
        let status = output.withUnsafeMutableBufferPointer { out in
            image.pixels.withUnsafeBufferPointer { source in
                var destination = out.baseAddress
                return tjCompress2(handle.handle, source.baseAddress, width, pitch, height, pixelFormat, &destination, &size,
                                   sampling, Int32(min(max(quality, 1), 100)), TJFLAG_NOREALLOC)
            }
        }
        guard status == 0, size <= UInt(capacity) else {
            throw ThumbnailError(.encodingFailed, "jpeg: \(handle.message)")
        }
        // A copy of the bytes written: the worst-case buffer is many times the file, and a thumbnail kept in a cache
        // would keep all of it.
        return Array(output[..<Int(size)])
    }

    /// The `.rgb8` image in a JPEG file.
    /// - Throws: `ThumbnailError` `invalidImage` for bytes libjpeg-turbo cannot read or an image above `maximumPixelCount`.
    static func decompress(_ bytes: [UInt8], maximumPixelCount: Int) throws(ThumbnailError) -> RGBImage {
        guard let handle = TurboJPEGHandle(compressing: false) else {
            throw ThumbnailError(.invalidImage, "jpeg: libjpeg-turbo could not make an instance")
        }
        guard let header = handle.header(of: bytes) else {
            throw ThumbnailError(.invalidImage, "jpeg: \(handle.message)")
        }
        let (width, height) = (header.width, header.height)
        guard width > 0, height > 0, width * height <= maximumPixelCount else {
            throw ThumbnailError(.invalidImage, "jpeg: a \(width)x\(height) image is larger than \(maximumPixelCount) pixels")
        }
        guard let pixels = handle.rgbPixels(of: bytes, header: header) else {
            throw ThumbnailError(.invalidImage, "jpeg: \(handle.message)")
        }
        return RGBImage(width: width, height: height, bytesPerRow: width * 3, pixelFormat: .rgb8, pixels: pixels)
    }

    /// libjpeg-turbo's TurboJPEG API has no version call: the file of the library linked, which names its ABI
    /// version (`libturbojpeg.so.0.2.0`), found with `dladdr` from one of its functions.
    static var libraryVersion: String {
        guard let file = CTurboJPEG_libraryPath() else { return "unknown" }
        let path = String(cString: file)
        // The soname (libturbojpeg.so.0) links to the file whose name has the whole ABI version.
        let linked = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? path
        return (linked.split(separator: "/").last.map(String.init) ?? linked) + " (the library has no version call)"
    }
}
