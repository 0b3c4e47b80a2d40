import ByteSources

/// The movie written in memory from a segment's demuxed video (an MPEG-TS segment's, a Matroska file's span of
/// Clusters); its statistics are the segment's, so the reads of the movie count as nothing and the segment's reads
/// count once.
struct DemuxedMovieSource: ByteSource {
    let movie: MemoryByteSource
    let segment: CountingByteSource
    let name: String

    var knownLength: UInt64? { movie.knownLength }

    func read(_ range: Range<UInt64>) async throws -> [UInt8] { try await movie.read(range) }

    var inputName: String? { name }

    var statistics: FetchStats? { get async { await segment.statistics } }
}
