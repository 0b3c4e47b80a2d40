import ByteSources
import StreamManifests
import TransportStream

extension StreamSession {
    /// The bytes read from each end of a transport stream file: the program tables and the first pictures, the last
    /// pictures and so the duration.
    static let transportFileEndBytes: UInt64 = 64 << 10

    /// Reads the ends of the transport stream file the session describes (at once), and the file as a stream of one
    /// segment.
    /// - Throws: `TransportStreamError` located at the file (`notTransportStream` when it is none), or the input's
    ///   errors.
    func loadTransportFile() async throws -> StreamPresentation {
        let source = CountingByteSource(try input.open(known: nil))
        let ends = try await source.readEnds(head: Self.transportFileEndBytes, tail: Self.transportFileEndBytes)
        let length: UInt64
        if let known = ends.length {
            length = known
        } else if let known = await source.knownLength {
            length = known
        } else {
            // An origin that tells no length: the file is searched as far as its head reaches.
            length = UInt64(ends.head.count)
        }
        let index: TransportFileIndex
        do {
            index = try TransportFileIndex(head: ends.head, tail: ends.tail, tailOffset: ends.tailOffset, length: length)
        } catch {
            throw error.located(input: input.name)
        }
        transportFile = TransportFileSegment(source: source, index: index, name: input.name, workLimits: workLimits)
        return index.presentation(url: input.name)
    }
}
