import FrameDecode
import MP4Box
import Synchronization
import Thumbs

/// Decoders for one track, lent to one task at a time: at most as many are made as decodes run at once.
final class DecoderPool: Sendable {
    /// A decoder in transit between the pool and the one task that uses it.
    ///
    /// `@unchecked Sendable`: a decoder is not thread-safe, and it is never shared; the pool hands each box to
    /// one task, which gives it back when done, and the hand-over goes through the pool's mutex.
    final class Lease: @unchecked Sendable {
        let decoder: any VideoDecoder
        init(_ decoder: any VideoDecoder) { self.decoder = decoder }
    }

    private let track: Track
    private let limits: ThumbnailLimits
    private let idle = Mutex<[Lease]>([])
    private let made = Atomic<Int>(0)

    /// A pool of decoders for `track`'s first sample description, for keyframes alone (storyboard tiles), within `limits`.
    init(track: Track, limits: ThumbnailLimits = ThumbnailLimits()) {
        self.track = track
        self.limits = limits
    }

    /// Decoders made so far.
    var madeCount: Int { made.load(ordering: .relaxed) }

    /// An idle decoder, or a new one.
    /// - Throws: `DecodeError` from `VideoDecoderFactory.makeDecoder(for:threading:limits:)`.
    func take() throws(DecodeError) -> Lease {
        if let lease = idle.withLock({ $0.popLast() }) { return lease }
        let lease = Lease(try VideoDecoderFactory.makeDecoder(for: track, threading: .single, keyframesOnly: true,
                                                              limits: limits.decoderLimits))
        made.add(1, ordering: .relaxed)
        return lease
    }

    /// Gives `lease` back for the next task; a decoder that cannot be reset is dropped instead.
    func giveBack(_ lease: Lease) {
        guard (try? lease.decoder.reset()) != nil else { return }
        idle.withLock { $0.append(lease) }
    }
}
