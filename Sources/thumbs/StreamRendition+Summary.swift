import StreamManifests

extension StreamRendition {
    /// The rendition in a few words for `--stats`: its id, size, bit rate and codecs, those the playlist gives.
    var summary: String {
        [id, width.map { "\($0)x\(height ?? 0)" }, bandwidth.map { "\($0) bit/s" }, codecs].compactMap { $0 }
            .joined(separator: " ")
    }
}
