import Matroska
import MP4Box

/// A Matroska or WebM file's index as kept between pictures (in a `MovieIndexStore`, as a movie's is): the file, where
/// its last frame ends (its Duration, else found in the last Cluster its tail holds), and the Clusters known: those in
/// the bytes read with the index (the first, the last few) and those searches over a file without Cues found since.
/// With them a later picture needs neither the index's bytes nor a search's probes again.
public struct MatroskaIndex: Sendable {
    /// The file's index.
    public var file: MatroskaFile
    /// Where the picture track's last frame ends, in timestamp units: the Duration, else what the tail showed; nil
    /// when neither says.
    public var endTime: Int64?
    /// The Clusters known, in file order.
    public var clusters: [MatroskaClusterSearch.Point]

    /// The index `located` found, with the Clusters and the last frame its bytes hold, and `learned` Clusters besides.
    public init(located: MatroskaLocator.Result, learned: [MatroskaClusterSearch.Point] = []) {
        file = located.file
        let end = located.file.fileLength ?? located.file.segmentEnd ?? .max
        let found = located.heldBytes.spans.flatMap { MatroskaClusterSearch.clusters(in: $0.bytes, at: $0.offset, before: end) }
        clusters = Self.merged(found, learned)
        endTime = located.file.duration.map { Int64(min($0, 9e18)) }
            ?? located.file.pictureTrack.flatMap { located.file.lastFrameEnd(in: located.heldBytes, track: $0) }
    }

    /// `known` and `more` as one list in file order, each Cluster once.
    static func merged(_ known: [MatroskaClusterSearch.Point], _ more: [MatroskaClusterSearch.Point]) -> [MatroskaClusterSearch.Point] {
        var byOffset: [UInt64: MatroskaClusterSearch.Point] = [:]
        for point in known + more { byOffset[point.offset] = point }
        return byOffset.values.sorted { $0.offset < $1.offset }
    }

    /// This index with `learned` Clusters too; nil when it knew them all.
    func learning(_ learned: [MatroskaClusterSearch.Point]) -> MatroskaIndex? {
        let all = Self.merged(clusters, learned)
        guard all.count > clusters.count else { return nil }
        var more = self
        more.clusters = all
        return more
    }
}
