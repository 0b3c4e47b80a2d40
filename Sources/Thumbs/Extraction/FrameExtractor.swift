import FrameDecode
import MP4Box

/// Fetches and decodes the picture a `FramePlan` asks for.
public struct FrameExtractor: Sendable {
    /// The source the movie is read from.
    public let source: any ByteSource
    /// The track to decode.
    public let track: Track
    /// Ranges closer than this many bytes are read in one request.
    public var maximumGap: UInt64

    /// An extractor for `track` of the movie in `source`; `maximumGap` defaults to the source's coalescing gap.
    public init(source: any ByteSource, track: Track, maximumGap: UInt64? = nil) {
        self.source = source
        self.track = track
        self.maximumGap = maximumGap ?? source.coalescingGap
    }

    /// The decoded picture of `plan.target`.
    /// - Throws: `DecodeError`, `ThumbnailError` `noFrame` or `sampleOutOfRange`, or whatever the source throws.
    public func frame(for plan: FramePlan) async throws -> DecodedFrame {
        let bytes = try await SampleFetcher.fetch(plan.samples, from: source, maximumGap: maximumGap)
        try Task.checkCancellation()
        let threading: VideoDecoderFactory.Threading = plan.samples.count > 1 ? .workers(2) : .single
        let decoder = try VideoDecoderFactory.makeDecoder(for: track, descriptionIndex: plan.samples.first?.descriptionIndex ?? 1,
                                                          threading: threading)
        return try Self.decode(plan, bytes: bytes, with: decoder)
    }

    /// Decodes `plan`'s samples with `decoder` and returns the target's picture.
    static func decode(_ plan: FramePlan, bytes: [Int: [UInt8]], with decoder: any VideoDecoder) throws -> DecodedFrame {
        var found: DecodedFrame?
        for sample in plan.samples {
            try Task.checkCancellation()
            guard let data = bytes[sample.index] else {
                throw ThumbnailError(.sampleOutOfRange, "sample \(sample.index) was not fetched")
            }
            for frame in try decoder.decode(DecoderInput(sample: sample, bytes: data)) where frame.sampleIndex == plan.target.index {
                found = frame
            }
            if found != nil { break }
        }
        if found == nil {
            for frame in try decoder.flush() where frame.sampleIndex == plan.target.index {
                found = frame
            }
        }
        guard let found else {
            throw ThumbnailError(.noFrame, "the decoder gave no picture for sample \(plan.target.index)")
        }
        return found
    }
}
