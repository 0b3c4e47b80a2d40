package import CTurboJPEG

/// Owns one TurboJPEG instance (`tjInitCompress` or `tjInitDecompress`); `deinit` destroys it. The one owner of
/// libjpeg-turbo instances in the package: Motion JPEG frames here, thumbnails' JPEG files in Thumbs.
package final class TurboJPEGHandle {
    package let handle: tjhandle

    /// A compressor, or a decompressor; nil when libjpeg-turbo cannot make one.
    package init?(compressing: Bool) {
        guard let handle = compressing ? tjInitCompress() : tjInitDecompress() else { return nil }
        self.handle = handle
    }

    deinit {
        tjDestroy(handle)
    }

    /// libjpeg-turbo's message for the last error on this instance.
    package var message: String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }
}

extension TurboJPEGHandle {
    /// What a JPEG image's header says: its size, chroma subsampling (TJSAMP_*) and colour space (TJCS_*).
    package struct Header {
        package var width: Int
        package var height: Int
        package var subsampling: Int32
        package var colourspace: Int32
    }

    /// The header of the JPEG image `bytes`; nil when libjpeg-turbo refuses it (`message` says why).
    package func header(of bytes: [UInt8]) -> Header? {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
        let status = bytes.withUnsafeBufferPointer { source in
            tjDecompressHeader3(handle, source.baseAddress, UInt(source.count), &width, &height, &subsampling, &colourspace)
        }
        guard status == 0 else { return nil }
        return Header(width: Int(width), height: Int(height), subsampling: subsampling, colourspace: colourspace)
    }

    /// The JPEG image `bytes` of `header`'s size as 8-bit RGB, rows back to back (accurate DCT); nil when
    /// libjpeg-turbo refuses it (`message` says why). The caller has checked the size against its limits.
    package func rgbPixels(of bytes: [UInt8], header: Header) -> [UInt8]? {
        let rowBytes = header.width * 3
        var pixels = [UInt8](repeating: 0, count: rowBytes * header.height)
        let status = pixels.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { source in
                tjDecompress2(handle, source.baseAddress, UInt(source.count), out.baseAddress, Int32(header.width), Int32(rowBytes),
                              Int32(header.height), Int32(TJPF_RGB.rawValue), TJFLAG_ACCURATEDCT)
            }
        }
        return status == 0 ? pixels : nil
    }
}
