import ByteSources
import RangeFetch
import RangeFetchTestSupport
import Synchronization
import Testing

/// `HTTPByteSource.read(_:until:)` against the fault-injecting server: one request, handed over as it arrives, left
/// unread once the reader has enough, resumed where a reset cut it.
@Suite(.timeLimit(.minutes(1))) struct StreamingReadTests {
    static let file = HTTPByteSourceTests.file

    /// A reader that keeps what it is handed and has enough at `wanted` bytes.
    final class Collector: Sendable {
        let bytes = Mutex<[UInt8]>([])
        let wanted: Int

        init(wanted: Int) { self.wanted = wanted }

        var consume: @Sendable (ArraySlice<UInt8>) throws -> Bool {
            { piece in self.bytes.withLock { $0 += piece; return $0.count >= self.wanted } }
        }

        var kept: [UInt8] { bytes.withLock { $0 } }
    }

    @Test func theRestIsNotReadOnceTheReaderHasEnough() async throws {
        let faults = TestHTTPServer.Faults { $0.bandwidth = 2_000_000 }  // so the client stops before the server is done
        try await HTTPByteSourceTests.withSource(faults: faults) { source, server in
            let collector = Collector(wanted: 10_000)
            let count = try await source.read(0 ..< 100_000, until: collector.consume)
            #expect(count == UInt64(collector.kept.count))
            #expect(collector.kept == Array(Self.file.prefix(collector.kept.count)))
            #expect(collector.kept.count >= 10_000)
            #expect(collector.kept.count < Self.file.count)
            let stats = try #require(await source.statistics)
            #expect(stats.requests == 1)
            #expect(stats.bytes == count)
            #expect(server.requests.map(\.range) == ["bytes=0-99999"])
        }
    }

    @Test func aResetBodyGoesOnFromTheFirstByteNotHandedOver() async throws {
        let faults = TestHTTPServer.Faults {
            $0.resetAfterBodyBytes = 1000
            $0.resetRequests = 1
        }
        try await HTTPByteSourceTests.withSource(faults: faults) { source, server in
            let collector = Collector(wanted: .max)
            let count = try await source.read(200 ..< 50_000, until: collector.consume)
            #expect(count == 49_800)
            #expect(collector.kept == Array(Self.file[200 ..< 50_000]))
            let ranges = server.requests.map(\.range)
            #expect(ranges.count == 2)
            #expect(ranges.first == "bytes=200-49999")
            // The retry asks for what the reader was not handed yet.
            let resumed = try #require(ranges.last?.flatMap { $0.split(separator: "=").last?.split(separator: "-").first }.flatMap { Int($0) })
            #expect(resumed > 200)
            #expect(resumed <= 1200)
        }
    }

    @Test func aWholeBodyIsHandedOverFromTheRangeOnly() async throws {
        try await HTTPByteSourceTests.withSource(faults: .init { $0.ignoresRange = true }) { source, _ in
            let collector = Collector(wanted: .max)
            let count = try await source.read(5_000 ..< 9_000, until: collector.consume)
            #expect(count == 4_000)
            #expect(collector.kept == Array(Self.file[5_000 ..< 9_000]))
        }
    }

    struct ReaderRefused: Error, Equatable {}

    @Test func whatTheReaderThrowsComesOutAsItIsWithoutARetry() async throws {
        try await HTTPByteSourceTests.withSource { source, server in
            await #expect(throws: ReaderRefused()) {
                _ = try await source.read(0 ..< 100_000) { _ in throw ReaderRefused() }
            }
            #expect(server.requests.count == 1)
        }
    }

    @Test func theEndOfTheResourceEndsTheRead() async throws {
        try await HTTPByteSourceTests.withSource { source, _ in
            let collector = Collector(wanted: .max)
            let count = try await source.read(90_000 ..< 1 << 30, until: collector.consume)
            #expect(count == 10_000)
            #expect(collector.kept == Array(Self.file[90_000...]))
            #expect(try await source.read(200_000 ..< 300_000, until: collector.consume) == 0)
        }
    }
}
