import MP4Box

extension Movie {
    /// The video track pictures are made from: the first enabled video track with samples, else the first video track.
    /// A movie with unread fragments (`hasUnreadFragments`) may give it without samples yet.
    /// - Throws: `ThumbnailError` `noVideo` when the movie has no video track, `noSamples` when it has no samples.
    public func thumbnailTrack() throws -> MovieTrack {
        guard let track = primaryVideoTrack else {
            var kinds: [(kind: String, count: Int)] = []
            for track in tracks {
                if let index = kinds.firstIndex(where: { $0.kind == track.kind.rawValue }) {
                    kinds[index].count += 1
                } else {
                    kinds.append((track.kind.rawValue, 1))
                }
            }
            let listed = kinds.map { "\($0.count) \($0.kind) track\($0.count == 1 ? "" : "s")" }.joined(separator: " and ")
            throw ThumbnailError(.noVideo, kinds.isEmpty ? "the movie has no tracks" : "the movie has no video track, only \(listed)")
        }
        guard track.samples.count > 0 || hasUnreadFragments else {
            throw ThumbnailError(.noSamples, "video track \(track.id) has no samples")
        }
        return track
    }
}
