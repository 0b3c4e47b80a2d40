import ByteSources
import FrameDecode
import MP4Box

/// The one path from a plan to its picture: the planned samples, their bytes batch by batch, the decoder and its
/// reorder state. `MovieSession` decodes every picture through it (storyboard tiles with all their bytes at hand).
///
/// Memory holds one batch of sample bytes at a time (at most `ThumbnailLimits.batchBytes`, or one sample),
/// however long the run from the keyframe: `run` asks its caller for each batch (from a cache or the source), and
/// the caller may keep what it fetched. A sample larger than `maximumSampleSize` is refused before anything is
/// fetched.
///
/// A decoder that finds mid-run that it must start again with more room (`DecodeError.Code.restartFromKeyframe`:
/// openh264 meeting a reference list longer than its picture pool) is reset and the run starts again from the
/// plan's first sample, its batches asked for again; `onPicture` is not given a picture twice.
package struct DecodeSession {
    /// What to decode.
    let plan: FramePlan
    /// The decoder, reset by the caller to start at the plan's keyframe.
    let decoder: any VideoDecoder
    private let batchBytes: Int
    /// The first sample not yet handed out by `nextBatch()`.
    private var next = 0
    private var found: DecodedFrame?
    /// Called with every picture the decoder gives, in presentation order, before the session looks for the
    /// target's: how a run of frames (an animated preview) takes the pictures it wants on the way.
    package var onPicture: ((DecodedFrame) throws -> Void)?
    /// Time spent waiting for `run`'s batches.
    private(set) var fetchTime = Duration.zero
    /// Time spent decoding in `run`.
    private(set) var decodeTime = Duration.zero
    /// Times the run started again from its first sample (`restartFromKeyframe`).
    private(set) var restarts = 0
    /// The samples whose pictures `onPicture` was given.
    private var delivered: Set<Int> = []
    /// The most restarts a run may take: each one widens the decoder, so a stream needs at most a few.
    static let maximumRestarts = 3

    /// A session for `plan` on `decoder` (one made for `plan`, or for a plan that needs as much: a decoder made for
    /// keyframes alone takes a plan of one keyframe only).
    /// - Throws: `ThumbnailError` `limitExceeded` when a sample is larger than `limits.maximumSampleSize`.
    package init(plan: FramePlan, decoder: any VideoDecoder, limits: ThumbnailLimits) throws {
        try Self.checkSampleSizes(of: plan, limits: limits)
        self.plan = plan
        self.decoder = decoder
        batchBytes = limits.batchBytes
    }

    /// Refuses a plan with a sample larger than `limits.maximumSampleSize`, before anything is fetched.
    /// - Throws: `ThumbnailError` `limitExceeded`.
    package static func checkSampleSizes(of plan: FramePlan, limits: ThumbnailLimits) throws {
        if let large = plan.samples.first(where: { UInt64($0.size) > UInt64(max(0, limits.maximumSampleSize)) }) {
            throw ThumbnailError(.limitExceeded, "\(large.size) bytes, more than the sample size limit of \(limits.maximumSampleSize)",
                                 sample: large.index)
        }
    }

    /// The samples to fetch and decode next (at most `batchBytes` of them, at least one); nil when the picture is
    /// found or every sample was handed out.
    package mutating func nextBatch() -> ArraySlice<Sample>? {
        guard found == nil, next < plan.samples.count else { return nil }
        var end = next
        var bytes = 0
        while end < plan.samples.count, end == next || bytes + Int(plan.samples[end].size) <= batchBytes {
            bytes += Int(plan.samples[end].size)
            end += 1
        }
        defer { next = end }
        return plan.samples[next..<end]
    }

    /// Decodes `batch` (from `nextBatch()`) with its bytes by sample index; the picture once the decoder gives it.
    /// When the decoder asks to start again, it is reset and the next `nextBatch()` is the plan's first.
    /// - Throws: `DecodeError`; `ThumbnailError` `sampleOutOfRange` when a sample's bytes are missing; `CancellationError`.
    package mutating func decode(_ batch: ArraySlice<Sample>, bytes: [Int: [UInt8]]) throws -> DecodedFrame? {
        for sample in batch {
            try Task.checkCancellation()
            guard let data = bytes[sample.index] else {
                throw ThumbnailError(.sampleOutOfRange, "not fetched", sample: sample.index)
            }
            let result = Result { () throws(DecodeError) in try decoder.decode(DecoderInput(sample: sample, bytes: data)) }
            if case .failure(let error) = result, error.code == .restartFromKeyframe, restarts < Self.maximumRestarts {
                try decoder.reset()
                restarts += 1
                next = 0
                return nil
            }
            try take(try result.get())
            if let found { return found }
        }
        return nil
    }

    /// Gives `frames` to `onPicture` (each sample's picture once, across restarts) and keeps the target's.
    private mutating func take(_ frames: [DecodedFrame]) throws {
        for frame in frames {
            if onPicture != nil, delivered.insert(frame.sampleIndex).inserted { try onPicture?(frame) }
            if frame.sampleIndex == plan.target.index { found = frame }
        }
    }

    /// The picture, flushing the decoder when the samples did not give it.
    /// - Throws: `DecodeError`; `ThumbnailError` `noFrame` when the decoder never gave the target's picture.
    package mutating func finish() throws -> DecodedFrame {
        if let found { return found }
        try take(try decoder.flush())
        guard let found else {
            throw ThumbnailError(.noFrame, "the decoder gave no picture", sample: plan.target.index)
        }
        return found
    }

    /// Flushes the decoder after the picture was found, giving its last pictures to `onPicture` (a run's pictures
    /// that follow the target in presentation order).
    /// - Throws: `DecodeError`; what `onPicture` throws.
    package mutating func drain() throws {
        try take(try decoder.flush())
    }

    /// Fetches each batch with `fetch` and decodes it, until the picture. The caller bounds how many run at once
    /// (`PicturePermit`): the decoder and its pictures live from the first decode to the end of the run.
    /// - Throws: what `fetch` throws; `DecodeError`; `ThumbnailError` `noFrame` or `sampleOutOfRange`; `CancellationError`.
    package mutating func run(isolation: isolated (any Actor)? = #isolation,
                              fetch: (ArraySlice<Sample>) async throws -> [Int: [UInt8]]) async throws -> DecodedFrame {
        while let batch = nextBatch() {
            let fetchWatch = Stopwatch()
            let bytes = try await fetch(batch)
            fetchTime += fetchWatch.elapsed
            try Task.checkCancellation()
            if let frame = try timed({ try $0.decode(batch, bytes: bytes) }) { return frame }
        }
        return try timed { try $0.finish() }
    }

    /// Runs the synchronous decode `step` on this session, adding its time to `decodeTime`.
    private mutating func timed<T>(_ step: (inout DecodeSession) throws -> T) rethrows -> T {
        let watch = Stopwatch()
        defer { decodeTime += watch.elapsed }
        return try step(&self)
    }

    /// Decodes a plan whose bytes are all at hand.
    package static func decode(_ plan: FramePlan, bytes: [Int: [UInt8]], with decoder: any VideoDecoder,
                       limits: ThumbnailLimits = ThumbnailLimits()) throws -> DecodedFrame {
        var session = try DecodeSession(plan: plan, decoder: decoder, limits: limits)
        while let batch = session.nextBatch() {
            if let frame = try session.decode(batch, bytes: bytes) { return frame }
        }
        return try session.finish()
    }
}
