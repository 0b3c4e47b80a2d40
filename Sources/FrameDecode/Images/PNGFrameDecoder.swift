internal import CPNG
import MP4Box

/// PNG frames (`png ` tracks, as screen recorders and editors write them) through libpng's simplified reader: every
/// sample is one picture, read as 8-bit sRGB (grey and palette images expanded, 16-bit ones reduced) into G, B and R
/// planes (matrix 0, full range, BT.709 primaries, sRGB transfer), with the image's alpha as the frame's alpha plane.
public final class PNGFrameDecoder: VideoDecoder {
    private let limits: DecoderLimits

    /// A decoder for `configuration` (PNG).
    /// - Throws: `DecodeError` `unsupportedCodec` for another codec.
    public init(configuration: CodecConfiguration, limits: DecoderLimits = DecoderLimits()) throws(DecodeError) {
        guard configuration.codec == .png else {
            throw DecodeError(.unsupportedCodec, "PNGFrameDecoder decodes PNG, not \(configuration.codingFormat)")
        }
        self.limits = limits
    }

    public func decode(_ input: DecoderInput) throws(DecodeError) -> [DecodedFrame] {
        let index = input.sample.index
        let handle = PNGImageHandle()
        guard handle.beginReading(input.bytes) else {
            throw DecodeError(.decoderRejected, decoder: "libpng", sampleIndex: index, "refused the image: \(handle.message)")
        }
        let (width, height) = (Int(handle.image.width), Int(handle.image.height))
        guard width > 0, height > 0 else {
            throw DecodeError(.malformedSample, sampleIndex: index, "the PNG image is \(width)x\(height)")
        }
        try limits.check(width: width, height: height, sampleIndex: index, by: "the PNG image's header")
        let hasAlpha = handle.image.format & PNG_FORMAT_FLAG_ALPHA != 0
        let channels = hasAlpha ? 4 : 3
        // libpng's simplified reader takes a 16-bit image that names no colour space as linear light and would
        // convert it to sRGB: such an opaque one is read as it is stored (16 bits, "linear") and its samples
        // rounded to 8 bits, as video decoders give them. (A transparent one would come premultiplied that way.)
        let readsStoredSamples = handle.image.format & PNG_FORMAT_FLAG_LINEAR != 0 && !hasAlpha
            && !Self.namesColourSpace(input.bytes)
        let format = PNG_FORMAT_FLAG_COLOR | (hasAlpha ? PNG_FORMAT_FLAG_ALPHA : 0) | (readsStoredSamples ? PNG_FORMAT_FLAG_LINEAR : 0)
        guard let samples = handle.finishReading(format: format, channels: channels, bytesPerSample: readsStoredSamples ? 2 : 1) else {
            throw DecodeError(.decoderRejected, decoder: "libpng", sampleIndex: index, "refused the image: \(handle.message)")
        }
        let pixels = readsStoredSamples ? Self.rounded16(samples) : samples
        var frame = DecodedFrame(planes: RGBPlanes.planes(interleaved: pixels, width: width, height: height, channels: channels),
                                 bitDepth: 8, chromaFormat: .yuv444,
                                 colour: ColourDescription(primaries: 1, transfer: 13, matrix: 0, fullRange: true),
                                 sampleIndex: index, compositionTime: input.sample.compositionTime)
        if hasAlpha { frame.alpha = RGBPlanes.plane(pixels, channel: 3, width: width, height: height, channels: channels) }
        return [frame]
    }

    public func flush() throws(DecodeError) -> [DecodedFrame] { [] }

    /// Native-endian 16-bit samples rounded to 8 bits.
    private static func rounded16(_ samples: [UInt8]) -> [UInt8] {
        samples.withUnsafeBytes { raw in
            raw.bindMemory(to: UInt16.self).map { UInt8((UInt32($0) * 255 + 32767) / 65535) }
        }
    }

    /// Whether the PNG names its colour space (a gAMA, cHRM, sRGB, iCCP or cICP chunk before its image data).
    static func namesColourSpace(_ bytes: [UInt8]) -> Bool {
        var position = 8
        while position + 8 <= bytes.count {
            let length = Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            let type = String(decoding: bytes[position + 4..<position + 8], as: UTF8.self)
            if ["gAMA", "cHRM", "sRGB", "iCCP", "cICP"].contains(type) { return true }
            if type == "IDAT" { return false }
            position += 12 + length
        }
        return false
    }

    public func reset() throws(DecodeError) {}
}
