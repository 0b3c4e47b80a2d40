import MP4Box

/// One sample to decode: where it is in the track and its bytes as stored (length-prefixed NAL units).
public struct DecoderInput: Sendable {
    /// The sample's table entry.
    public var sample: Sample
    /// The sample's bytes.
    public var bytes: [UInt8]

    /// Makes an input.
    public init(sample: Sample, bytes: [UInt8]) {
        self.sample = sample
        self.bytes = bytes
    }
}
