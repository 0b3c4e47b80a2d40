import ByteSources
import MP4Box

extension MovieLocator {
    /// `known` (with no bytes held) when the caller has the movie already, else the movie located in `source` and
    /// the media bytes read on the way, for `SampleFetcher` to take samples from.
    /// - Throws: what `locate(in:)` throws.
    package func movie(_ known: Movie?, in source: any ByteSource) async throws -> (movie: Movie, heldBytes: HeldBytes) {
        if let known { return (known, HeldBytes()) }
        let located = try await locate(in: source)
        return (located.movie, located.heldBytes)
    }
}
