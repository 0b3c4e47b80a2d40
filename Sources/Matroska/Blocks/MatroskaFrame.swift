/// One coded frame of a track, as a block (or one frame of a laced block) holds it.
public struct MatroskaFrame: Sendable, Equatable {
    /// Its presentation time, in timestamp units (the Cluster's Timestamp plus the block's relative one).
    public var timestamp: Int64
    /// Whether a decoder can start at it (SimpleBlock's keyframe flag; a BlockGroup without a ReferenceBlock).
    public var isKeyframe: Bool
    /// The frame's bytes, with the header the track strips put back.
    public var data: [UInt8]
    /// The file offset of the block element that holds it.
    public var blockOffset: UInt64
    /// The file offset just past that block element.
    public var blockEnd: UInt64
    /// Its alpha plane, coded as a frame of the track's codec (a BlockGroup's BlockAdditional of BlockAddID 1, in a
    /// track whose AlphaMode is 1); nil for an opaque frame.
    public var alpha: [UInt8]?

    /// Makes a frame.
    public init(timestamp: Int64, isKeyframe: Bool, data: [UInt8], blockOffset: UInt64, blockEnd: UInt64, alpha: [UInt8]? = nil) {
        self.timestamp = timestamp
        self.isKeyframe = isKeyframe
        self.data = data
        self.blockOffset = blockOffset
        self.blockEnd = blockEnd
        self.alpha = alpha
    }
}
