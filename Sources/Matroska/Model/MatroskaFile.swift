/// A Matroska or WebM file's index, as `MatroskaLocator` finds it: its DocType, Info, Tracks and Cues, and where its
/// Segment and first Cluster are. Everything a picture needs before its keyframe's block is read.
public struct MatroskaFile: Sendable, Equatable {
    /// DocType: `matroska` or `webm`.
    public var docType: String
    /// The file offset of the Segment's data: positions in SeekHead and Cues count from it.
    public var segmentDataOffset: UInt64
    /// The file offset of the Segment's end, when its size is known.
    public var segmentEnd: UInt64?
    /// TimestampScale: nanoseconds per timestamp unit (1,000,000 by default: milliseconds).
    public var timestampScale: UInt64
    /// Duration in timestamp units, when the file says (MediaRecorder's files do not).
    public var duration: Double?
    /// The tracks, in file order.
    public var tracks: [MatroskaTrack]
    /// The cue points of the picture track (`pictureTrack`), in order of time; empty when the file has no Cues.
    public var cuePoints: [CuePoint]
    /// The file offset of the first Cluster, when the locator saw it.
    public var firstClusterOffset: UInt64?
    /// The file's length, when known.
    public var fileLength: UInt64?

    /// The track a picture is taken from: the first enabled video track flagged default, else the first enabled
    /// video track, else the first video track.
    public var pictureTrack: MatroskaTrack? {
        let video = tracks.filter { $0.kind == .video }
        return video.first { $0.isEnabled && $0.isDefault } ?? video.first(where: \.isEnabled) ?? video.first
    }

    /// The file offset of a position counted from the Segment's data (SeekHead's, Cues'), nil past the largest offset.
    public func fileOffset(ofSegmentPosition position: UInt64) -> UInt64? {
        let (offset, overflow) = segmentDataOffset.addingReportingOverflow(position)
        return overflow || offset > UInt64(Int64.max) ? nil : offset
    }

    /// `timestamp` (in timestamp units) in nanoseconds, saturating.
    public func nanoseconds(_ timestamp: Int64) -> Int64 {
        let (product, overflow) = timestamp.multipliedReportingOverflow(by: Int64(clamping: timestampScale))
        return overflow ? (timestamp < 0 ? .min : .max) : product
    }
}
