import ByteSources
import Synchronization
import Testing

/// The default `read(_:until:)`: reads of `streamingPieceBytes` one after another until the reader has enough or the
/// source ends; counted as one request.
struct StreamingReadDefaultTests {
    static let bytes: [UInt8] = (0 ..< 200_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 9) }

    @Test func piecesGoOnUntilTheReaderHasEnough() async throws {
        let pieces = Mutex<[Int]>([])
        let source = CountingByteSource(MemoryByteSource(Self.bytes))
        let count = try await source.read(1_000 ..< 150_000) { piece in
            #expect(Array(piece) == Array(Self.bytes[(1_000 + pieces.withLock { $0.reduce(0, +) })...].prefix(piece.count)))
            return pieces.withLock { $0.append(piece.count); return $0.reduce(0, +) >= 70_000 }
        }
        let piece = Int(MemoryByteSource.streamingPieceBytes)
        #expect(pieces.withLock { $0 } == [piece, piece])
        #expect(count == UInt64(2 * piece))
        let stats = try #require(await source.statistics)
        #expect(stats.requests == 1)
        #expect(stats.bytes == count)
    }

    @Test func theSourcesEndEndsTheRead() async throws {
        let handed = Mutex(0)
        let source = MemoryByteSource(Self.bytes)
        let count = try await source.read(150_000 ..< 1 << 40) { piece in
            handed.withLock { $0 += piece.count }
            return false
        }
        #expect(count == 50_000)
        #expect(handed.withLock { $0 } == 50_000)
    }
}
