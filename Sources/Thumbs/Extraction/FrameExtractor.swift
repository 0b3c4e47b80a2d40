import ByteSources
import FrameDecode
import MP4Box

/// Fetches and decodes the picture a `FramePlan` asks for, with a decoder of its own.
public struct FrameExtractor: Sendable {
    /// The source the movie is read from.
    public let source: any ByteSource
    /// The track to decode.
    public let track: Track
    /// Ranges closer than this many bytes are read in one request.
    public var maximumGap: UInt64
    /// Ceilings on the samples and bytes of one picture.
    public var limits: ThumbnailLimits
    /// Bytes already read (while locating the index) that samples are taken from without a read.
    public var heldBytes: HeldBytes

    /// An extractor for `track` of the movie in `source`; `maximumGap` defaults to the source's coalescing gap.
    /// `heldBytes` (`MovieLocator.Result.heldBytes`) are taken instead of read where they hold a sample.
    public init(source: any ByteSource, track: Track, maximumGap: UInt64? = nil, limits: ThumbnailLimits = ThumbnailLimits(),
                heldBytes: HeldBytes = HeldBytes()) {
        self.source = source
        self.heldBytes = heldBytes
        self.track = track
        self.maximumGap = maximumGap ?? source.coalescingGap
        self.limits = limits
    }

    /// The decoded picture of `plan.target`, fetched batch by batch (see `ThumbnailLimits.batchBytes`).
    /// - Throws: `DecodeError`, `ThumbnailError` `noFrame`, `sampleOutOfRange` or `limitExceeded`, or whatever the source throws.
    public func frame(for plan: FramePlan) async throws -> DecodedFrame {
        var session = try DecodeSession(plan: plan, decoder: DecodeSession.makeDecoder(for: track, plan: plan, limits: limits),
                                        limits: limits)
        return try await session.run { batch in
            try await SampleFetcher.fetch(Array(batch), from: source, held: heldBytes, maximumGap: maximumGap)
        }
    }
}
