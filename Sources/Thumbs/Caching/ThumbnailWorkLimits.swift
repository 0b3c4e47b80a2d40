/// Bounds on concurrent work shared by several generators: sample fetches and decodes.
public struct ThumbnailWorkLimits: Sendable {
    /// Concurrent sample fetches.
    public let fetches: AsyncLimiter
    /// Concurrent decodes.
    public let decodes: AsyncLimiter

    /// Limits of `fetches` concurrent fetches and `decodes` concurrent decodes.
    public init(fetches: Int, decodes: Int) {
        self.fetches = AsyncLimiter(limit: fetches)
        self.decodes = AsyncLimiter(limit: decodes)
    }
}
