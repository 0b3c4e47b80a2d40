import ByteSources
import Matroska
import MP4Box

extension ByteSource {
    /// Runs `reader` to its end, reading what it asks for from this source: the one place where an index reader's
    /// requests become reads.
    /// - Throws: the reader's `MP4Error` with this source's name as its input, or whatever the source throws.
    public func run<Reader: IndexReader>(_ reader: Reader) async throws -> Reader.Output {
        var reader = reader
        do {
            while true {
                switch try reader.next() {
                case .done(let output):
                    return output
                case .read(let request):
                    let answer = try await answer(to: request)
                    reader.receive(answer, for: request, knownLength: await knownLength)
                }
            }
        } catch let error as MP4Error {
            throw error.located(input: inputName)
        } catch let error as MatroskaError {
            throw error.located(input: inputName)
        }
    }

    /// Reads what `request` asks for.
    private func answer(to request: ByteRequest) async throws -> ByteAnswer {
        switch request {
        case .ends(let head, let tail):
            let ends = try await readEnds(head: head, tail: tail)
            return .ends(head: ends.head, tail: ends.tail, tailOffset: ends.tailOffset, length: ends.length)
        case .range(let range):
            return .bytes([try await read(range)])
        case .ranges(let ranges):
            return .bytes(try await read(ranges: ranges))
        }
    }
}

extension MovieLocator {
    /// Finds and parses the movie in `source` (a new locator with these options, run by `ByteSource.run(_:)`).
    /// - Throws: `MP4Error` as `next()` throws it, with the source's name as its input, or whatever the source throws.
    public func locate(in source: any ByteSource) async throws -> Result {
        try await source.run(MovieLocator(options: options, knownLength: await source.knownLength))
    }

    /// `movie` with the moofs of more subsegments read from `source` (`FragmentReader`).
    /// - Throws: `MP4Error` as `FragmentReader.next()` throws it, with the source's name, or whatever the source throws.
    public func readingFragments(_ subsegments: [Int], of movie: Movie, in source: any ByteSource,
                                 held: HeldBytes = HeldBytes()) async throws -> Result {
        try await source.run(fragmentReader(subsegments, of: movie, held: held, knownLength: await source.knownLength))
    }
}
