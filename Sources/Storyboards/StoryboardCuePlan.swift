/// What placing tiles needs of a plan: the cues' times, and the keyframe each cue shows (a position among the
/// plan's distinct keyframes, never moving backwards as the cues go on). A movie's plan (`StoryboardPlan`) and a
/// stream's (`StreamStoryboardPlan`) both give it.
protocol StoryboardCuePlan: Sendable {
    /// How many cues.
    var cueCount: Int { get }
    /// For each cue, the position of its keyframe among the distinct keyframes.
    var cueKeyframes: [Int] { get }
    /// How many distinct keyframes.
    var keyframeCount: Int { get }
    /// The start of cue `index`.
    func cueStart(_ index: Int) -> Duration
    /// The end of cue `index` (exclusive).
    func cueEnd(_ index: Int) -> Duration
}
