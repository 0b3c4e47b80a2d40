internal import CWebP

/// Animated WebP through libwebp's animation encoder (libwebpmux's `WebPAnimEncoder`) and decoder (libwebpdemux's
/// `WebPAnimDecoder`): every call into them goes through here.
///
/// Frames are added one at a time, in time order, and compressed as they come (each against the one before), so a
/// preview holds one frame in memory, not all of them. `deinit` frees the encoder on every path.
final class AnimatedWebPEncoder {
    private var encoder: OpaquePointer?
    private var config = WebPConfig()
    /// The canvas size every frame has.
    let width: Int
    let height: Int
    private var lastTimestamp = -1

    /// An encoder for frames of `width` x `height` (each side 1 to 16,383): lossy at `quality` (0 to 100), or lossless;
    /// `loops` times round (0: for ever).
    /// - Throws: `ThumbnailError` `encodingFailed` for a size WebP cannot hold or when libwebp cannot start.
    init(width: Int, height: Int, quality: Int, lossless: Bool, loops: Int = 0) throws(ThumbnailError) {
        guard (1...Int(WEBP_MAX_DIMENSION)).contains(width), (1...Int(WEBP_MAX_DIMENSION)).contains(height) else {
            throw ThumbnailError(.encodingFailed, "webp: an animation of \(width)x\(height) passes WebP's \(WEBP_MAX_DIMENSION) on a side")
        }
        self.width = width
        self.height = height
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0, WebPConfigInit(&config) != 0 else {
            throw ThumbnailError(.encodingFailed, "webp: libwebp's animation encoder is not the version its header describes")
        }
        options.anim_params.loop_count = Int32(clamping: max(0, loops))
        config.lossless = lossless ? 1 : 0
        config.quality = Float(min(max(quality, 0), 100))
        guard WebPValidateConfig(&config) != 0, let made = WebPAnimEncoderNew(Int32(width), Int32(height), &options) else {
            throw ThumbnailError(.encodingFailed, "webp: libwebp could not start an animation of \(width)x\(height)")
        }
        encoder = made
    }

    deinit {
        WebPAnimEncoderDelete(encoder)
    }

    /// Adds `image` (8-bit, the canvas size), shown from `milliseconds` until the next frame's time.
    /// - Throws: `ThumbnailError` `encodingFailed` for another size, a 16-bit image, a time not after the last one, or
    ///   when libwebp fails.
    func add(_ image: RGBImage, at milliseconds: Int) throws(ThumbnailError) {
        let (frameWidth, frameHeight, stride) = try image.eightBitEncoderInput(for: "webp")
        guard Int(frameWidth) == width, Int(frameHeight) == height else {
            throw ThumbnailError(.encodingFailed, "webp: a \(image.width)x\(image.height) frame in a \(width)x\(height) animation")
        }
        guard milliseconds > lastTimestamp, let time = Int32(exactly: milliseconds) else {
            throw ThumbnailError(.encodingFailed, "webp: a frame at \(milliseconds) ms after one at \(lastTimestamp) ms")
        }
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw ThumbnailError(.encodingFailed, "webp: libwebp's picture is not the version its header describes")
        }
        defer { WebPPictureFree(&picture) }
        picture.width = frameWidth
        picture.height = frameHeight
        picture.use_argb = 1
        let imported = image.pixels.withUnsafeBufferPointer { pixels in
            image.pixelFormat == .rgba8
                ? WebPPictureImportRGBA(&picture, pixels.baseAddress, stride)
                : WebPPictureImportRGB(&picture, pixels.baseAddress, stride)
        }
        guard imported != 0, WebPAnimEncoderAdd(encoder, &picture, time, &config) != 0 else {
            throw ThumbnailError(.encodingFailed, "webp: libwebp could not add the frame at \(milliseconds) ms: \(errorText)")
        }
        lastTimestamp = milliseconds
    }

    /// The animated WebP file, the last frame shown until `endMilliseconds`.
    /// - Throws: `ThumbnailError` `encodingFailed` when there is no frame, the end is not after the last frame, or
    ///   libwebp fails.
    func finish(at endMilliseconds: Int) throws(ThumbnailError) -> [UInt8] {
        guard lastTimestamp >= 0 else { throw ThumbnailError(.encodingFailed, "webp: an animation without frames") }
        guard endMilliseconds > lastTimestamp, let end = Int32(exactly: endMilliseconds) else {
            throw ThumbnailError(.encodingFailed, "webp: an animation ending at \(endMilliseconds) ms, not after its last frame")
        }
        var data = WebPData()
        defer { WebPDataClear(&data) }
        guard WebPAnimEncoderAdd(encoder, nil, end, nil) != 0, WebPAnimEncoderAssemble(encoder, &data) != 0,
              let bytes = data.bytes else {
            throw ThumbnailError(.encodingFailed, "webp: libwebp could not assemble the animation: \(errorText)")
        }
        return Array(UnsafeBufferPointer(start: bytes, count: data.size))
    }

    private var errorText: String {
        guard let text = WebPAnimEncoderGetError(encoder) else { return "no reason given" }
        return String(cString: text)
    }
}

/// Reading an animated WebP back, frame by frame, as libwebp's own decoder composes it.
public enum AnimatedWebPDecoder {
    /// One frame of an animation: the whole canvas as it is shown from `milliseconds` on.
    public struct Frame: Sendable {
        public var image: RGBImage
        /// When the frame starts, from the start of the animation.
        public var milliseconds: Int
        /// How long it is shown.
        public var durationMilliseconds: Int
    }

    /// The frames of an animated (or still) WebP file, with the canvas size and loop count.
    /// - Throws: `ThumbnailError` `invalidImage` for bytes libwebp cannot read, or a canvas above `maximumPixelCount`
    ///   or more than `maximumFrameCount` frames.
    public static func frames(in bytes: [UInt8], maximumPixelCount: Int = 4096 * 4096,
                              maximumFrameCount: Int = 10_000) throws(ThumbnailError) -> (frames: [Frame], loops: Int) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(ThumbnailError) -> ([Frame], Int) in
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else {
                throw ThumbnailError(.invalidImage, "webp: libwebp's animation decoder is not the version its header describes")
            }
            options.color_mode = MODE_RGBA
            options.use_threads = 0
            guard let decoder = WebPAnimDecoderNew(&data, &options) else {
                throw ThumbnailError(.invalidImage, "webp: libwebp cannot read these \(bytes.count) bytes as a WebP file")
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else {
                throw ThumbnailError(.invalidImage, "webp: libwebp cannot read the animation's header")
            }
            let width = Int(info.canvas_width), height = Int(info.canvas_height)
            guard width > 0, height > 0, width * height <= maximumPixelCount, Int(info.frame_count) <= maximumFrameCount else {
                throw ThumbnailError(.invalidImage, "webp: a \(width)x\(height) canvas of \(info.frame_count) frames is past the limits")
            }
            var frames: [Frame] = []
            var previousEnd = 0
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var canvas: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
                    throw ThumbnailError(.invalidImage, "webp: libwebp could not decode frame \(frames.count + 1)")
                }
                let pixels = Array(UnsafeBufferPointer(start: canvas, count: width * height * 4))
                // WebPAnimDecoderGetNext gives the time a frame ends; it starts where the one before it ended.
                frames.append(Frame(image: RGBImage(width: width, height: height, pixelFormat: .rgba8, pixels: pixels),
                                    milliseconds: previousEnd, durationMilliseconds: Int(timestamp) - previousEnd))
                previousEnd = Int(timestamp)
            }
            return (frames, Int(info.loop_count))
        }
    }
}
