import ByteSources
import FrameDecode
import MP4Box

/// Fetches and decodes the exact picture a `FramePlan` asks for, from any track of a movie.
public struct FrameExtractor: Sendable {
    /// The movie read.
    public let session: MovieSession
    /// The track to decode.
    public let track: MovieTrack
    /// Ranges closer than this many bytes are read in one request (nil: the source's coalescing gap).
    public var maximumGap: UInt64?
    /// Ceilings on the samples and bytes of one picture.
    public var limits: ThumbnailLimits

    /// An extractor for `track` of `session`'s movie.
    public init(session: MovieSession, track: MovieTrack, maximumGap: UInt64? = nil, limits: ThumbnailLimits = ThumbnailLimits()) {
        self.session = session
        self.track = track
        self.maximumGap = maximumGap
        self.limits = limits
    }

    /// An extractor for `track` of the movie in `source`, with a session of its own; `heldBytes`
    /// (`MovieLocator.Result.heldBytes`) are taken instead of read where they hold a sample.
    public init(source: any ByteSource, track: MovieTrack, maximumGap: UInt64? = nil, limits: ThumbnailLimits = ThumbnailLimits(),
                heldBytes: HeldBytes = HeldBytes()) {
        self.init(session: MovieSession(source: source, heldBytes: heldBytes, sampleCacheBytes: 0),
                  track: track, maximumGap: maximumGap, limits: limits)
    }

    /// The decoded picture of `plan.target`, fetched batch by batch (see `ThumbnailLimits.batchBytes`: memory holds
    /// one batch, the samples are not kept), decoded with worker threads when the plan is a run of frames.
    /// - Throws: `DecodeError`, `ThumbnailError` `noFrame`, `sampleOutOfRange` or `limitExceeded`, or whatever the source throws.
    public func frame(for plan: FramePlan) async throws -> DecodedFrame {
        var permit = PicturePermit(session.workLimits?.decodes)
        do {
            let picture = try await session.decode(plan, of: track, limits: limits, maximumGap: maximumGap, keepingSamples: false,
                                                   permit: &permit)
            await permit.giveBack()
            return picture.frame
        } catch {
            await permit.giveBack()
            throw error
        }
    }
}
