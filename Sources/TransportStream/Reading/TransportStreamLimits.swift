/// Caps on what a transport stream can make the demuxer hold. Nothing is allocated for a size the stream states:
/// every byte held arrived in a packet; these caps bound how many arrive before the demuxer gives up.
public struct TransportStreamLimits: Sendable, Equatable {
    /// Largest access unit (one coded picture with its parameter sets), in bytes. An 8K intra picture at high
    /// quality is a few MiB.
    public var maximumAccessUnitBytes: Int
    /// Largest sum of the bytes of the access units held (complete and in progress), in bytes.
    public var maximumHeldBytes: Int
    /// Most complete access units held.
    public var maximumAccessUnits: Int
    /// Bytes read from the start without finding the program's video stream (PAT, then PMT) before giving up.
    public var maximumBytesBeforeVideo: Int

    /// The defaults: 32 MiB per access unit, 256 MiB held, 4,096 access units, 4 MiB before the video stream is known.
    public init(maximumAccessUnitBytes: Int = 32 << 20, maximumHeldBytes: Int = 256 << 20,
                maximumAccessUnits: Int = 4096, maximumBytesBeforeVideo: Int = 4 << 20) {
        self.maximumAccessUnitBytes = maximumAccessUnitBytes
        self.maximumHeldBytes = maximumHeldBytes
        self.maximumAccessUnits = maximumAccessUnits
        self.maximumBytesBeforeVideo = maximumBytesBeforeVideo
    }
}
