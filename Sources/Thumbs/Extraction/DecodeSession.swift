import FrameDecode
import MP4Box

/// Decodes one plan's samples in decode order, batch by batch, and gives the target's picture.
///
/// Memory holds one batch of sample bytes at a time (at most `ThumbnailLimits.batchBytes`, or one sample),
/// however long the run from the keyframe: the caller fetches each batch the session names (from a cache or the
/// source), hands it over, and may keep what it fetched. A sample larger than `maximumSampleSize` is refused
/// before anything is fetched.
struct DecodeSession {
    /// What to decode.
    let plan: FramePlan
    /// The decoder, reset by the caller to start at the plan's keyframe.
    let decoder: any VideoDecoder
    private let batchBytes: Int
    /// The first sample not yet handed out by `nextBatch()`.
    private var next = 0
    private var found: DecodedFrame?

    /// A session for `plan` on `decoder`.
    /// - Throws: `ThumbnailError` `limitExceeded` when a sample is larger than `limits.maximumSampleSize`.
    init(plan: FramePlan, decoder: any VideoDecoder, limits: ThumbnailLimits) throws {
        if let large = plan.samples.first(where: { UInt64($0.size) > UInt64(max(0, limits.maximumSampleSize)) }) {
            throw ThumbnailError(.limitExceeded, "\(large.size) bytes, more than the sample size limit of \(limits.maximumSampleSize)",
                                 sample: large.index)
        }
        self.plan = plan
        self.decoder = decoder
        batchBytes = limits.batchBytes
    }

    /// The samples to fetch and decode next (at most `batchBytes` of them, at least one); nil when the picture is
    /// found or every sample was handed out.
    mutating func nextBatch() -> ArraySlice<Sample>? {
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
    /// - Throws: `DecodeError`; `ThumbnailError` `sampleOutOfRange` when a sample's bytes are missing; `CancellationError`.
    mutating func decode(_ batch: ArraySlice<Sample>, bytes: [Int: [UInt8]]) throws -> DecodedFrame? {
        for sample in batch {
            try Task.checkCancellation()
            guard let data = bytes[sample.index] else {
                throw ThumbnailError(.sampleOutOfRange, "not fetched", sample: sample.index)
            }
            for frame in try decoder.decode(DecoderInput(sample: sample, bytes: data)) where frame.sampleIndex == plan.target.index {
                found = frame
            }
            if let found { return found }
        }
        return nil
    }

    /// The picture, flushing the decoder when the samples did not give it.
    /// - Throws: `DecodeError`; `ThumbnailError` `noFrame` when the decoder never gave the target's picture.
    mutating func finish() throws -> DecodedFrame {
        if let found { return found }
        for frame in try decoder.flush() where frame.sampleIndex == plan.target.index {
            found = frame
        }
        guard let found else {
            throw ThumbnailError(.noFrame, "the decoder gave no picture", sample: plan.target.index)
        }
        return found
    }

    /// Decodes a plan whose bytes are all at hand.
    static func decode(_ plan: FramePlan, bytes: [Int: [UInt8]], with decoder: any VideoDecoder,
                       limits: ThumbnailLimits = ThumbnailLimits()) throws -> DecodedFrame {
        var session = try DecodeSession(plan: plan, decoder: decoder, limits: limits)
        while let batch = session.nextBatch() {
            if let frame = try session.decode(batch, bytes: bytes) { return frame }
        }
        return try session.finish()
    }
}
