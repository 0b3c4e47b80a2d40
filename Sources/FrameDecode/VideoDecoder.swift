import MP4Box

/// A video decoder for one track: samples in decode order in, pictures in presentation order out.
///
/// A decoder is not thread-safe; use it from one task at a time (it is `~Copyable`-like in spirit:
/// one owner). Its C handle is freed when the decoder is released.
public protocol VideoDecoder: AnyObject {
    /// Decodes one sample; returns the pictures that are ready, in presentation order, each tagged with its sample.
    /// - Throws: `DecodeError` (`malformedSample`, `decoderRejected`, `missingParameterSets`, `unsupportedFeature`,
    ///   `limitExceeded` for an in-band sequence parameter set past the decoder's `DecoderLimits`,
    ///   `restartFromKeyframe` when the decoder must be reset and given the samples from the keyframe again).
    func decode(_ input: DecoderInput) throws(DecodeError) -> [DecodedFrame]

    /// Drains the pictures held for reordering, in presentation order.
    /// - Throws: `DecodeError` `decoderRejected`.
    func flush() throws(DecodeError) -> [DecodedFrame]

    /// Forgets every picture and reference so decoding can start again at a new sync sample. What the decoder
    /// learned about the stream's needs (`DecodeError.Code.restartFromKeyframe`) is kept.
    func reset() throws(DecodeError)
}

/// Creates the decoder for a track by its sample-entry code.
public enum VideoDecoderFactory {
    /// How many threads a decoder may use.
    public enum Threading: Sendable {
        /// Decode on the calling thread: best for one keyframe.
        case single
        /// Let the library use up to this many worker threads: for a run of frames.
        case workers(Int)

        /// The threads a library is given: 1, or the workers.
        var threadCount: Int {
            switch self {
            case .single: 1
            case .workers(let count): count
            }
        }
    }

    /// Makes a decoder for the sample entry of `track` that samples with `descriptionIndex` use (1-based; the first
    /// visual entry when that one is not visual). A track may carry an encrypted entry beside a clear one, with
    /// clear samples pointing at the clear one (Shaka's clear-lead streams).
    /// - Throws: `DecodeError` `unsupportedCodec` for a codec without a decoder here (its error names the codec and
    ///   profile) and for encrypted entries, `badConfiguration` when avcC/hvcC/av1C is missing or its sequence header
    ///   cannot be read, `unsupportedFeature` for H.264 openh264 does not decode (interlaced, 4:2:2, 4:4:4, above 8
    ///   bits), `limitExceeded` when its sequence parameter set asks for pictures past `limits`.
    /// Decoded here: H.264 (`avc1`, `avc3`; Dolby Vision's `dvav`, `dva1`), HEVC (`hvc1`, `hev1`; `dvhe`, `dvh1`), AV1
    /// (`av01`, `dav1`), VP8, VP9, Motion JPEG (`jpeg`, `mjpa`, `AVDJ`, `dmb1`) and PNG (`png `).
    /// With `keyframesOnly`, every sample the decoder is given is a sync sample decoded on its own (a thumbnail's
    /// nearest keyframe, a storyboard's tiles): a decoder that sizes its picture pool by the stream's reference
    /// frames is told there are none (openh264), which leaves the pictures the same in less memory.
    public static func makeDecoder(for track: MovieTrack, descriptionIndex: UInt32 = 1, threading: Threading = .single,
                                   keyframesOnly: Bool = false,
                                   limits: DecoderLimits = DecoderLimits()) throws(DecodeError) -> any VideoDecoder {
        guard let entry = track.visualEntry(descriptionIndex: descriptionIndex) ?? track.visualEntry else {
            throw DecodeError(.unsupportedCodec, "track \(track.id) has no visual sample entry")
        }
        if entry.isProtected {
            throw DecodeError(.unsupportedCodec, "track \(track.id) is encrypted (\(entry.header.type), original format \(entry.codingFormat))")
        }
        let configuration: CodecConfiguration
        do {
            configuration = try CodecConfiguration(entry: entry)
        } catch where error.code == .unsupportedCodec || error.code == .unsupportedFeature {
            #if FFmpegDecoders
            // What the default decoders refuse, libavcodec decodes where it has a decoder for it.
            if LibAVCodecDecoders.name(for: entry.codecDescription) != nil {
                return try FFmpegDecoder(entry: entry, colour: track.colour, threading: threading, limits: limits)
            }
            #endif
            throw error
        }
        let colour = track.colour
        switch configuration.codec {
        case .h264:
            return try OpenH264Decoder(configuration: configuration, colour: colour, limits: limits, keyframesOnly: keyframesOnly)
        case .hevc:
            return try De265Decoder(configuration: configuration, colour: colour, threading: threading, limits: limits)
        case .av1:
            return try Dav1dDecoder(configuration: configuration, colour: colour, threading: threading, limits: limits)
        case .vp8, .vp9:
            return try VPXDecoder(configuration: configuration, colour: colour, threading: threading, limits: limits)
        case .motionJPEG:
            return try MotionJPEGDecoder(configuration: configuration, colour: colour,
                                         bottomFieldFirst: entry.fieldHandling?.bottomFieldFirst ?? false, limits: limits)
        case .png:
            return try PNGFrameDecoder(configuration: configuration, limits: limits)
        }
    }
}
