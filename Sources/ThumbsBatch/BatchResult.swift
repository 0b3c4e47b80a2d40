/// What a `ThumbnailBatch` did with one movie, and where the batch stands after it.
public struct BatchResult: Sendable {
    /// What became of the movie.
    public enum Outcome: Sendable {
        /// The thumbnail (and the companion, if any) was made and written.
        case made
        /// The outputs were already there, made from this version of the input with these options.
        case skipped
        /// Not made: why (the error the input gave, the companion's, or a write's). No output of it was replaced but a
        /// companion folder made whole before the thumbnail's write failed.
        case failed(any Error)

        /// `made`, `skipped` or `failed`.
        public var name: String {
            switch self {
            case .made: "made"
            case .skipped: "skipped"
            case .failed: "failed"
            }
        }
    }

    /// The movie.
    public var item: BatchItem
    /// What became of it.
    public var outcome: Outcome
    /// The time of the frame shown, in seconds (nil unless made).
    public var actualTime: Double?
    /// Body bytes read for it (a skipped URL's version check included).
    public var bytesFetched: UInt64
    /// Requests sent for it.
    public var requests: Int
    /// How long it took, from its start to its outputs written.
    public var duration: Duration
    /// The batch after this movie.
    public var progress: BatchProgress
}
