import Foundation
import MP4Box

/// A file in memory that answers an `IndexReader`'s requests as a byte source over it does, and records them: how
/// parser tests drive the locator with no source and no suspension point.
///
/// Ranges are clamped to the end; the ends come back as one head when the file is no longer than head and tail
/// together; with the length hidden (as a server without Content-Length), the ends are the head alone. A file
/// longer than its bytes reads as zeros past them (a sparse file).
public final class MemoryFile {
    /// The bytes the file starts with.
    public let bytes: [UInt8]
    /// The file's length (at least `bytes.count`).
    public let length: UInt64
    /// Whether the reader is told the length before it reads.
    public let revealsLength: Bool
    /// What errors call the file.
    public let name: String?
    /// Every request answered, in order.
    public private(set) var requests: [ByteRequest] = []

    /// A file of `bytes`, `length` long (default: the bytes'), whose length is told or hidden, named `name` in errors.
    public init(_ bytes: [UInt8], length: UInt64? = nil, revealsLength: Bool = true, name: String? = nil) {
        self.bytes = bytes
        self.length = max(length ?? 0, UInt64(bytes.count))
        self.revealsLength = revealsLength
        self.name = name
    }

    /// The length as a source tells it: nil when hidden.
    public var knownLength: UInt64? { revealsLength ? length : nil }

    /// The ranges read, as a source sees them: the head and the tail of the ends, each range of a batch.
    public var ranges: [Range<UInt64>] {
        requests.flatMap { request -> [Range<UInt64>] in
            switch request {
            case .ends(let head, let tail):
                guard revealsLength, length > head + tail else { return [0..<(revealsLength ? length : head)] }
                return tail == 0 ? [0..<head] : [0..<head, (length - tail)..<length]
            case .range(let range):
                return [range]
            case .ranges(let ranges):
                return ranges
            }
        }
    }

    /// The file at `path`, named by it.
    /// - Throws: what reading the file throws.
    public convenience init(path: String) throws {
        self.init(Array(try Data(contentsOf: URL(fileURLWithPath: path))), name: path)
    }

    /// Runs `reader` to its end over this file.
    /// - Throws: the reader's `MP4Error`, with `name` as its input.
    public func run<Reader: IndexReader>(_ reader: Reader) throws(MP4Error) -> Reader.Output where Reader.Failure == MP4Error {
        do {
            return try reader.run { request in
                requests.append(request)
                return (answer(to: request), knownLength)
            }
        } catch {
            throw error.located(input: name)
        }
    }

    /// What a source over this file answers to `request`.
    public func answer(to request: ByteRequest) -> ByteAnswer {
        .answering(request, length: knownLength) { bytes(in: $0) }
    }

    /// The bytes of `range`, clamped to the end of the file.
    public func bytes(in range: Range<UInt64>) -> [UInt8] {
        let lower = min(range.lowerBound, length)
        let upper = min(max(range.upperBound, lower), length)
        let stored = UInt64(bytes.count)
        let fromBytes = Array(bytes[Int(min(lower, stored))..<Int(min(upper, stored))])
        return fromBytes + [UInt8](repeating: 0, count: Int(upper - max(lower, min(upper, stored))))
    }
}

extension MovieLocator {
    /// The movie in `file`: a new locator with these options, run over it.
    /// - Throws: `MP4Error` as `next()` throws it, with the file's name.
    public func locate(in file: MemoryFile) throws(MP4Error) -> Result {
        try file.run(MovieLocator(options: options, knownLength: file.knownLength))
    }

    /// `movie` with the moofs of more subsegments read from `file`.
    /// - Throws: `MP4Error` as `FragmentReader.next()` throws it, with the file's name.
    public func readingFragments(_ subsegments: [Int], of movie: Movie, in file: MemoryFile,
                                 held: HeldBytes = HeldBytes()) throws(MP4Error) -> Result {
        try file.run(fragmentReader(subsegments, of: movie, held: held, knownLength: file.knownLength))
    }
}

extension Movie {
    /// Everything the movie's tracks say, one line a sample: to compare movies read in different ways.
    public func fingerprint() throws -> [String] {
        var lines = ["tracks \(tracks.count) fragmented \(isFragmented) moov \(moovOffset)"]
        for track in tracks {
            lines.append("track \(track.id) \(track.kind) \(track.sampleEntryType?.description ?? "-") \(track.samples.count) \(track.durationSeconds)")
            for index in 0..<track.samples.count {
                let sample = try track.samples.sample(at: index)
                lines.append("\(sample.offset) \(sample.size) \(sample.decodeTime) \(sample.compositionOffset) \(sample.isSync)")
            }
        }
        return lines
    }
}
