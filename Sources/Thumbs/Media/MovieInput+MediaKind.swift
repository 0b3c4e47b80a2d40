import ByteSources
import MP4Box
import StreamManifests

extension MovieInput {
    /// Whether the input's name says it is an HLS playlist or a DASH manifest: it ends in `.m3u8`, `.m3u` or `.mpd`
    /// (before any query or fragment). Others are told by content (`ByteSource.startsWithManifest(after:)`).
    public var namesStream: Bool {
        let path = name.split(whereSeparator: { $0 == "?" || $0 == "#" }).first.map(String.init) ?? name
        let lowered = path.lowercased()
        return [".m3u8", ".m3u", ".mpd"].contains { lowered.hasSuffix($0) }
    }
}

extension ByteSource {
    /// Whether `error` says the source is not a movie and its first 4 KiB are an HLS playlist or a DASH manifest
    /// (one more read of them): then it is read as a stream.
    public func startsWithManifest(after error: any Error) async -> Bool {
        guard let movieError = error as? MP4Error, movieError.code == .notAMovie,
              let head = try? await read(0 ..< 4_096) else { return false }
        return StreamManifest.format(of: head) != nil
    }
}
