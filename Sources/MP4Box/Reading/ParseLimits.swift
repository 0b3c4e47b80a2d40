/// Caps on counts that the bytes of a file cannot back on their own.
///
/// Most counts in a movie are checked against the bytes that hold them; these
/// limits bound the ones that are not (a constant sample size times a sample
/// count, the sum of run-length tables, nesting depth), so that no number read
/// from the input can make the parser loop or allocate without bound.
public struct ParseLimits: Sendable, Equatable {
    /// Most samples in one track (sum of stts runs, stsz count with a constant size). Default 50 million.
    public var maximumSampleCount: UInt64 = 50_000_000
    /// Deepest box nesting followed. Default 32.
    public var maximumDepth: Int = 32
    /// Most child boxes read in one container. Default 100,000.
    public var maximumChildBoxes: Int = 100_000
    /// Largest moov (or moof) read whole, in bytes. Default 256 MiB.
    public var maximumIndexBoxSize: UInt64 = 256 << 20
    /// Most tracks in one movie. Default 1,024.
    public var maximumTrackCount: Int = 1_024
    /// Most movie fragments followed. Default 1,000,000.
    public var maximumFragmentCount: Int = 1_000_000
    /// Largest cover-art image kept, in bytes. Default 16 MiB.
    public var maximumArtworkSize: Int = 16 << 20
    /// Whether leftover bytes after a box's known fields are an error (true) or a recorded diagnostic (false).
    public var strict: Bool = false

    /// The documented defaults.
    public init() {}
}
