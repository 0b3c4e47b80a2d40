/// The one error type of the `FrameDecode` layer: what was refused, by which decoder library, for which sample.
public struct DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure. New kinds may be added (a `switch` over it in another module needs an
    /// `@unknown default`).
    @nonexhaustive
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// The track's codec has no decoder here (vp09, mp4v, ...), or the track is encrypted.
        case unsupportedCodec
        /// The stream uses a feature the decoder cannot decode (interlaced H.264 in openh264, 4:2:2 in openh264, ...).
        case unsupportedFeature
        /// The codec configuration (avcC/hvcC/av1C) is missing or unreadable.
        case badConfiguration
        /// No parameter sets reached the decoder before a picture.
        case missingParameterSets
        /// A sample's NAL unit lengths (AV1: OBU headers and sizes) do not fit the sample.
        case malformedSample
        /// The decoder library rejected a sample.
        case decoderRejected
        /// The decoder produced no picture for a sample that should have one.
        case noFrame
        /// The decoder library could not be created.
        case decoderUnavailable
        /// A sequence parameter set asks for pictures larger than `DecoderLimits` allow.
        case limitExceeded
        /// The sample needs more than the decoder was set up to keep (openh264: a reference list longer than its
        /// picture pool). The decoder now keeps enough: `reset()` it and decode again from the keyframe. The
        /// sample was not decoded, and the decoder gives no more pictures until it is reset.
        case restartFromKeyframe
    }

    /// The kind of failure.
    public var code: Code
    /// The decoder library that failed (`openh264`, `libde265`, `dav1d`), when one did; its state, when it gave one, is in
    /// `detail`.
    public var decoder: String?
    /// The sample's index in decode order, when one is involved.
    public var sampleIndex: Int?
    /// A short, factual, lower-case description.
    public var detail: String

    /// Makes an error.
    public init(_ code: Code, decoder: String? = nil, sampleIndex: Int? = nil, _ detail: String) {
        self.code = code
        self.decoder = decoder
        self.sampleIndex = sampleIndex
        self.detail = detail
    }

    public var description: String {
        let place = [decoder, sampleIndex.map { "sample \($0)" }].compactMap(\.self)
        return place.isEmpty ? detail : place.joined(separator: ", ") + ": " + detail
    }
}
