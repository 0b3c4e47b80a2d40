/// Puts pictures into presentation order.
///
/// A picture leaves once no sample still pending in the decoder could be shown
/// before it, and more than `depth` pictures are held (the DPB "bumping" rule:
/// `depth` is the stream's maximum reorder, so no later picture can come before it).
struct ReorderBuffer {
    /// Pictures that may follow a picture in decode order and precede it in output order.
    let depth: Int

    /// A buffer for a stream that reorders at most `depth` pictures.
    init(depth: Int) {
        self.depth = max(0, depth)
    }

    private var pending = PendingSamples()
    private var held: [DecodedFrame] = []

    /// Notes that `sampleIndex` (shown at `compositionTime`) was sent to the decoder.
    mutating func submitted(sampleIndex: Int, compositionTime: Int64) {
        pending.sent(sampleIndex: sampleIndex, compositionTime: compositionTime)
    }

    /// The composition time of the picture the decoder made from `sampleIndex` (0 for a sample never submitted).
    mutating func compositionTime(ofPictureFrom sampleIndex: Int) -> Int64 {
        pending.pictureCameOut(sampleIndex: sampleIndex)
    }

    /// Takes pictures the decoder produced and returns those now ready, in presentation order.
    mutating func add(_ frames: [DecodedFrame]) -> [DecodedFrame] {
        for frame in frames {
            pending.pictureCameOut(sampleIndex: frame.sampleIndex)
            held.append(frame)
        }
        held.sort { $0.compositionTime < $1.compositionTime }
        let earliestPending = pending.earliest ?? Int64.max
        var ready: [DecodedFrame] = []
        while held.count > depth, let first = held.first, first.compositionTime < earliestPending {
            ready.append(held.removeFirst())
        }
        return ready
    }

    /// Returns every held picture, in presentation order, and forgets pending samples.
    mutating func drain(adding frames: [DecodedFrame]) -> [DecodedFrame] {
        held.append(contentsOf: frames)
        held.sort { $0.compositionTime < $1.compositionTime }
        defer {
            held.removeAll()
            pending.removeAll()
        }
        return held
    }
}
