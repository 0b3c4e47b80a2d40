import MP4Box

extension Movie {
    /// The video track pictures are made from: the first enabled video track with samples, else the first video track.
    /// - Throws: `ThumbnailError` `noVideo` when the movie has no video track, `noSamples` when it has no samples.
    public func thumbnailTrack() throws -> Track {
        guard let track = primaryVideoTrack else {
            throw ThumbnailError(.noVideo, "the movie has no video track (\(tracks.count) tracks: "
                                 + "\(tracks.map(\.kind.rawValue).joined(separator: ", ")))")
        }
        guard track.samples.count > 0 else {
            throw ThumbnailError(.noSamples, "video track \(track.id) has no samples")
        }
        return track
    }
}
