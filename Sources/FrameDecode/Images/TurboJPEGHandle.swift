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
