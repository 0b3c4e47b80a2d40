/// One cue point of one track (RFC 9559, section 5.1.5): a frame a decoder can start at, its time and its cluster.
public struct CuePoint: Sendable, Equatable {
    /// CueTime, in TimestampScale units: the frame's presentation time.
    public var time: UInt64
    /// CueTrack.
    public var track: UInt64
    /// CueClusterPosition: where its Cluster starts, from the start of the Segment's data.
    public var clusterPosition: UInt64
    /// CueRelativePosition: where its block starts, from the start of the Cluster's data; nil when not written.
    public var relativePosition: UInt64?

    /// Reads the cue points of a Cues element, of `track` alone when it is given, in order of time (at most
    /// `limits.maximumCuePoints`).
    /// - Throws: `MatroskaError` `malformed` for a CuePoint without CueTime or positions, `limitExceeded` past the limit.
    static func all(in cues: EBMLElement, track: UInt64?, limits: MatroskaLimits) throws(MatroskaError) -> [CuePoint] {
        var points: [CuePoint] = []
        for point in try cues.children() where point.id == MatroskaID.cuePoint {
            var time: UInt64?
            var positions: [CuePoint] = []
            for child in try point.children() {
                if child.id == MatroskaID.cueTime { time = try child.unsigned() }
                guard child.id == MatroskaID.cueTrackPositions else { continue }
                var cue = CuePoint(time: 0, track: 0, clusterPosition: 0, relativePosition: nil)
                var cluster: UInt64?
                for field in try child.children() {
                    switch field.id {
                    case MatroskaID.cueTrack: cue.track = try field.unsigned()
                    case MatroskaID.cueClusterPosition: cluster = try field.unsigned()
                    case MatroskaID.cueRelativePosition: cue.relativePosition = try field.unsigned()
                    default: continue
                    }
                }
                guard let cluster else { throw child.error("CueTrackPositions without CueClusterPosition") }
                cue.clusterPosition = cluster
                if track == nil || cue.track == track { positions.append(cue) }
            }
            guard let time else { throw point.error("a CuePoint without CueTime") }
            for var cue in positions {
                cue.time = time
                points.append(cue)
            }
            guard points.count <= limits.maximumCuePoints else {
                throw point.error(.limitExceeded, "more than \(limits.maximumCuePoints) cue points")
            }
        }
        // Muxers write them in order; a file that does not is put in order (a stable sort keeps equal times' order).
        if zip(points, points.dropFirst()).contains(where: { $0.time > $1.time }) {
            points = points.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        }
        return points
    }
}
