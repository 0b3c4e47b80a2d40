import Foundation
import MP4BoxTestSupport
import RangeFetch
import RangeFetchTestSupport
import Testing
import Thumbs
import ThumbsBatch

/// `ThumbnailBatch` over URLs: the version a second batch compares is the origin's ETag, learnt from one byte.
@Suite(.timeLimit(.minutes(1))) struct BatchHTTPTests {
    /// A second batch asks each URL for one byte and skips it; once the origin's file changes (to one of another size: the test server's ETag is its size), that
    /// movie alone is made again.
    @Test func aSecondBatchAsksEachURLForOneByteAndSkipsItUntilItsETagChanges() async throws {
        let names = ["h264-faststart", "rotate-90"]
        var files: [String: [UInt8]] = [:]
        for name in names { files["/\(name).mp4"] = try Fixtures.bytes(name) }
        let server = try await TestHTTPServer(files: files)
        defer { Task { try? await server.shutdown() } }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("batch-http-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let items = try names.map { BatchItem(input: try HTTPInput(url: server.url("/\($0).mp4")), output: "\($0).png") }
        let batch = ThumbnailBatch(items: items, outputDirectory: out)
        func run() async -> [String: BatchResult] {
            var results: [String: BatchResult] = [:]
            for await result in batch.results() { results[result.item.output] = result }
            return results
        }
        let first = await run()
        #expect(first.values.map(\.outcome.name) == ["made", "made"])
        #expect(first.values.allSatisfy { $0.bytesFetched > 0 })

        server.resetLog()
        let second = await run()
        #expect(second.values.map(\.outcome.name) == ["skipped", "skipped"])
        let probes = server.requests
        #expect(probes.count == 2 && probes.allSatisfy { $0.range == "bytes=0-0" && $0.bodyBytes == 1 }, "\(probes)")
        #expect(second.values.allSatisfy { $0.bytesFetched == 1 && $0.requests == 1 })

        server.replace("/rotate-90.mp4", with: try Fixtures.bytes("h264-bframes"))
        let third = await run()
        #expect(third.mapValues(\.outcome.name) == ["h264-faststart.png": "skipped", "rotate-90.png": "made"])
    }
}
