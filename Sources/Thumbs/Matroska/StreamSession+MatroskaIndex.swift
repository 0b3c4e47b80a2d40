import ByteSources
import Matroska

extension StreamSession {
    /// A Matroska file's index as a `MovieIndexStore` should keep it after this session's work: the one located here
    /// (with the bytes read for it), or `kept` (the one the session started from) with the Clusters its searches
    /// found since; nil for a manifest's stream, or when there is nothing new to keep.
    func matroskaEntryToKeep(replacing kept: MovieIndexEntry?) async -> MovieIndexEntry? {
        guard let matroska else { return nil }
        var learned: [MatroskaClusterSearch.Point] = []
        for (resource, reading) in segmentReadings where resource.url == input.name {
            if case .matroska(let segment) = reading { learned += await segment.knownClusters }
        }
        guard let kept, let keptIndex = kept.matroska else {
            let index = matroska.index.learning(learned) ?? matroska.index
            return MovieIndexEntry(matroska: index, known: await KnownVersion(of: matroska.source), indexBytes: matroska.held)
        }
        guard let index = keptIndex.learning(learned) else { return nil }
        return MovieIndexEntry(matroska: index, known: kept.known, indexBytes: kept.indexBytes)
    }

    /// The length and version of the Matroska file the session describes, as its source knows them (nil for a
    /// manifest's stream, or before the file's index is read): what its pictures' `Thumbnail.sourceVersion` is.
    var matroskaFileVersion: KnownVersion? {
        get async {
            guard let matroska else { return nil }
            return await KnownVersion(of: matroska.source)
        }
    }

    /// Reads the Matroska file's first byte (its index from a kept entry, so without a read of its own): a resource
    /// replaced since the entry was kept is noticed.
    func readFirstByte() async throws {
        _ = try await loadPresentation()
        _ = try await matroska?.source.read(0 ..< 1)
    }
}
