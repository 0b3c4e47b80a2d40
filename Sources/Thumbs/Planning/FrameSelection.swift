/// Which frame a request accepts, as AVAssetImageGenerator's tolerances say it.
public struct FrameSelection: Sendable, Equatable {
    /// How far before the requested time the frame may be shown, in seconds (`.infinity` for any).
    public var toleranceBefore: Double
    /// How far after the requested time the frame may be shown, in seconds (`.infinity` for any).
    public var toleranceAfter: Double

    /// Makes a selection with these tolerances.
    public init(toleranceBefore: Double, toleranceAfter: Double) {
        self.toleranceBefore = max(0, toleranceBefore)
        self.toleranceAfter = max(0, toleranceAfter)
    }

    /// The default: any frame, so the keyframe nearest the time (one sample fetched and decoded).
    public static let nearestKeyframe = FrameSelection(toleranceBefore: .infinity, toleranceAfter: .infinity)
    /// Tolerance zero: the frame on screen at the time, decoded from the keyframe before it.
    public static let exact = FrameSelection(toleranceBefore: 0, toleranceAfter: 0)
}
