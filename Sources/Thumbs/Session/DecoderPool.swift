import FrameDecode
import MP4Box
import Synchronization

/// Decoders lent to one task at a time and kept between pictures: the one reuse policy of every picture a
/// `MovieSession` makes. A task takes a decoder for its plan (an idle one made for the same track, sample
/// description, threading and limits, else a new one), decodes, and gives it back; at most `maximumIdle` are kept,
/// so a pool holds no more decoders than pictures were made at once, and none when `maximumIdle` is 0.
package final class DecoderPool: Sendable {
    /// A decoder in transit between the pool and the one task that uses it.
    ///
    /// `@unchecked Sendable`: a decoder is not thread-safe, and it is never shared; the pool hands each lease to
    /// one task, which gives it back when done, and the hand-over goes through the pool's mutex.
    package final class Lease: @unchecked Sendable {
        package let decoder: any VideoDecoder
        fileprivate let kind: Kind
        fileprivate init(_ decoder: any VideoDecoder, kind: Kind) {
            self.decoder = decoder
            self.kind = kind
        }
    }

    /// What a decoder was made for: one that decodes runs of frames also decodes a keyframe alone.
    fileprivate struct Kind: Hashable {
        var trackID: UInt32
        var descriptionIndex: UInt32
        var keyframesOnly: Bool
        var workerThreads: Int
        var limits: DecoderLimits
    }

    private let idle = Mutex<[Lease]>([])
    /// Most idle decoders kept.
    package let maximumIdle: Int

    /// A pool that keeps at most `maximumIdle` idle decoders.
    package init(maximumIdle: Int) {
        self.maximumIdle = max(0, maximumIdle)
    }

    /// An idle decoder that decodes `plan` of `track`, reset to start again, or a new one: for keyframes
    /// alone when the plan is one keyframe (less memory), with `threading` (default: two worker threads for a run of
    /// frames, else the calling thread), within `limits`.
    /// - Throws: `DecodeError` from `VideoDecoderFactory.makeDecoder(for:descriptionIndex:threading:keyframesOnly:limits:)`.
    package func take(for plan: FramePlan, of track: MovieTrack, threading: VideoDecoderFactory.Threading? = nil,
                      limits: DecoderLimits) throws(DecodeError) -> Lease {
        let threading = threading ?? (plan.samples.count > 1 ? .workers(2) : .single)
        let workers: Int
        switch threading {
        case .single: workers = 0
        case .workers(let count): workers = count
        }
        let wanted = Kind(trackID: track.id, descriptionIndex: plan.samples.first?.descriptionIndex ?? 1,
                          keyframesOnly: plan.isKeyframeOnly, workerThreads: workers, limits: limits)
        var runs = wanted
        runs.keyframesOnly = false
        let found = idle.withLock { leases -> Lease? in
            guard let index = leases.lastIndex(where: { $0.kind == wanted || $0.kind == runs }) else { return nil }
            return leases.remove(at: index)
        }
        // One that cannot be reset is dropped (a new one is made). The reset is here, not at `giveBack`: openh264
        // makes a new decoder to reset, wasted on one that is never taken again.
        if let found, (try? found.decoder.reset()) != nil { return found }
        let decoder = try VideoDecoderFactory.makeDecoder(for: track, descriptionIndex: wanted.descriptionIndex,
                                                          threading: threading, keyframesOnly: wanted.keyframesOnly,
                                                          limits: limits)
        return Lease(decoder, kind: wanted)
    }

    /// Gives `lease` back for the next task, unless `maximumIdle` are kept already: then it is dropped.
    package func giveBack(_ lease: Lease) {
        guard maximumIdle > 0 else { return }
        idle.withLock { leases in
            if leases.count < maximumIdle { leases.append(lease) }
        }
    }
}
