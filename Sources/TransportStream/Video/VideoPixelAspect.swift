/// A pixel aspect ratio a video header states, horizontal to vertical (4:3 is a pixel a third wider than tall).
public struct VideoPixelAspect: Sendable, Equatable {
    public var horizontal: Int
    public var vertical: Int

    /// Makes a ratio.
    public init(horizontal: Int, vertical: Int) {
        self.horizontal = horizontal
        self.vertical = vertical
    }
}
