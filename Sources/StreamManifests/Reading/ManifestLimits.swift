/// Caps on what a playlist or manifest may make the reader hold.
///
/// Explicit entries (a playlist's segments, a manifest's elements) are backed by the bytes of the text, which
/// `maximumTextBytes` bounds. Numbers the text states without bytes behind them (a SegmentTimeline entry's repeat
/// count, a template's segment count over a long period) are never expanded into lists: segments are computed from
/// them when asked for, so no number read can size an allocation.
public struct ManifestLimits: Sendable, Equatable {
    /// Longest playlist or manifest read, in bytes. Default 16 MiB (a day of 2-second HLS segments is about 4 MiB).
    public var maximumTextBytes: Int = 16 << 20
    /// Deepest XML element nesting followed. Default 32 (a DASH manifest nests 6 deep).
    public var maximumDepth: Int = 32
    /// Most periods in a manifest. Default 10,000.
    public var maximumPeriods: Int = 10_000
    /// Most segments one explicit list holds (an HLS playlist, a SegmentList). Default 1,000,000.
    public var maximumSegments: Int = 1_000_000

    /// The documented defaults.
    public init() {}
}
