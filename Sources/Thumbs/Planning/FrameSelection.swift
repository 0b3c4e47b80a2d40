import ByteSources

/// Which frame a request accepts, as AVAssetImageGenerator's tolerances say it.
public struct FrameSelection: Sendable, Equatable {
    /// How far before the requested time the frame may be shown (nil: any distance).
    public var toleranceBefore: Duration?
    /// How far after the requested time the frame may be shown (nil: any distance).
    public var toleranceAfter: Duration?

    /// Makes a selection with these tolerances (nil: unlimited; a negative one counts as zero).
    public init(toleranceBefore: Duration?, toleranceAfter: Duration?) {
        self.toleranceBefore = toleranceBefore.map { max(.zero, $0) }
        self.toleranceAfter = toleranceAfter.map { max(.zero, $0) }
    }

    /// The default: any frame, so the keyframe nearest the time (one sample fetched and decoded).
    public static let nearestKeyframe = FrameSelection(toleranceBefore: nil, toleranceAfter: nil)
    /// Tolerance zero: the frame on screen at the time, decoded from the keyframe before it.
    public static let exact = FrameSelection(toleranceBefore: .zero, toleranceAfter: .zero)

    /// The window in units of `timescale` a second: how far before and after the requested time a frame may be
    /// shown, infinity where the tolerance is unlimited.
    func window(timescale: UInt32) -> (before: Double, after: Double) {
        func units(_ tolerance: Duration?) -> Double {
            tolerance.map { $0.seconds * Double(timescale) } ?? .infinity
        }
        return (units(toleranceBefore), units(toleranceAfter))
    }
}
