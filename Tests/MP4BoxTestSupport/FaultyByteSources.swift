import ByteSources
import MP4Box

/// An error a faulty test source throws on purpose.
public struct InjectedFault: Error, Equatable {
    /// Which read (1-based) failed.
    public var readNumber: Int

    public init(readNumber: Int) {
        self.readNumber = readNumber
    }
}

/// Serves every read as several underlying reads of at most `pieceSize` bytes, so a result cannot depend on read boundaries.
public struct SplittingByteSource: ByteSource {
    let base: any ByteSource
    let pieceSize: UInt64

    public init(_ base: any ByteSource, pieceSize: UInt64) {
        self.base = base
        self.pieceSize = max(1, pieceSize)
    }

    public var knownLength: UInt64? { get async { await base.knownLength } }

    public func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        var result: [UInt8] = []
        var start = range.lowerBound
        while start < range.upperBound {
            let end = min(range.upperBound, start + pieceSize)
            let piece = try await base.read(start..<end)
            result += piece
            if piece.count < Int(end - start) { break }
            start = end
        }
        return result
    }
}

/// Fails the `failingRead`th read once with `InjectedFault`, then behaves.
public actor FailingByteSource: ByteSource {
    let base: any ByteSource
    let failingRead: Int
    /// Reads so far, failed one included.
    public private(set) var readCount = 0

    public init(_ base: any ByteSource, failingRead: Int) {
        self.base = base
        self.failingRead = failingRead
    }

    public var knownLength: UInt64? { get async { await base.knownLength } }

    public func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        readCount += 1
        if readCount == failingRead { throw InjectedFault(readNumber: readCount) }
        return try await base.read(range)
    }
}

/// Hides the length, as a server without Content-Length would.
public struct LengthHidingByteSource: ByteSource {
    let base: any ByteSource

    public init(_ base: any ByteSource) {
        self.base = base
    }

    public var knownLength: UInt64? { nil }

    public func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        try await base.read(range)
    }
}

/// Records every read it serves.
public actor RecordingByteSource: ByteSource {
    let base: any ByteSource
    /// The ranges asked for, in order.
    public private(set) var ranges: [Range<UInt64>] = []

    public init(_ base: any ByteSource) {
        self.base = base
    }

    public var knownLength: UInt64? { get async { await base.knownLength } }

    public func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        ranges.append(range)
        return try await base.read(range)
    }
}

/// A file of `length` bytes whose first bytes are `prefix` and the rest zeros, without holding them: a huge
/// file for tests that check no read or allocation follows a size read from it.
public struct SparseByteSource: ByteSource {
    let prefix: [UInt8]
    let length: UInt64

    /// The same file, for parser tests that read it without a source.
    public var file: MemoryFile { MemoryFile(prefix, length: length) }

    public init(prefix: [UInt8], length: UInt64) {
        self.prefix = prefix
        self.length = max(length, UInt64(prefix.count))
    }

    public var knownLength: UInt64? { length }

    public func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        let lower = min(range.lowerBound, length)
        let upper = min(max(range.upperBound, lower), length)
        var bytes = [UInt8](repeating: 0, count: Int(upper - lower))
        if lower < UInt64(prefix.count) {
            let end = min(upper, UInt64(prefix.count))
            bytes.replaceSubrange(0..<Int(end - lower), with: prefix[Int(lower)..<Int(end)])
        }
        return bytes
    }
}
