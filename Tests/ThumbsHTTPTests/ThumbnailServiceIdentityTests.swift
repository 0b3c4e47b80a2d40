import Foundation
import HTTPTypes
import MP4Box
import MP4BoxTestSupport
import RangeFetch
import RangeFetchTestSupport
import Testing
@testable import Thumbs

/// What makes two requests the same: never one user's picture for another, never an index of other bytes.
@Suite(.timeLimit(.minutes(1))) struct ThumbnailServiceIdentityTests {
    static func request(_ asset: ThumbnailAsset, time: Double = 1) -> ThumbnailRequest {
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 64, height: 64)
        options.format = .none
        return ThumbnailRequest(asset: asset, time: .seconds(time), options: options)
    }

    static func url(_ url: String, authorization: String) throws -> ThumbnailAsset {
        var options = HTTPFetchOptions()
        options.headers = [.authorization: authorization]
        options.maximumRetries = 0
        return ThumbnailAsset(try HTTPInput(url: url, options: options))
    }

    @Test func requestsWithOtherCredentialsShareNeitherWorkNorPictures() async throws {
        var faults = TestHTTPServer.Faults()
        faults.requiredAuthorization = "Bearer good"
        let server = try await TestHTTPServer(files: ["/m.mp4": try Fixtures.bytes("h264-faststart")], faults: faults)
        defer { Task { try? await server.shutdown() } }
        let service = ThumbnailService()
        let good = Self.request(try Self.url(server.url("/m.mp4"), authorization: "Bearer good"))
        let bad = Self.request(try Self.url(server.url("/m.mp4"), authorization: "Bearer other"))
        #expect(good != bad)
        // At the same time: the second must not join the first's work.
        let first = Task { try await service.thumbnail(good) }
        let second = Task { try await service.thumbnail(bad) }
        _ = try await first.value
        await #expect(throws: FetchError.self) { _ = try await second.value }
        // Later: the first's cached picture and index must not answer the second.
        do {
            _ = try await service.thumbnail(bad)
            Issue.record("a request with other credentials got the cached picture")
        } catch let error as FetchError {
            #expect(error.code == .forbidden)
        }
        #expect(await service.statistics.coalesced == 0)
        #expect(await service.statistics.cacheHits == 0)
        #expect(Set(server.requests.compactMap { $0.headers["authorization"] }) == ["Bearer good", "Bearer other"])
    }

    @Test func theSameHeadersInAnotherOrderAndCaseAreOneAsset() throws {
        var one = HTTPFetchOptions()
        one.headers = [.authorization: "Bearer a", .cookie: "s=1"]
        var two = HTTPFetchOptions()
        two.headers = [HTTPField.Name("cookie")!: "s=1", HTTPField.Name("authorization")!: "Bearer a"]
        let first = ThumbnailAsset(try HTTPInput(url: "http://h/m.mp4", options: one))
        #expect(first == ThumbnailAsset(try HTTPInput(url: "http://h/m.mp4", options: two)))
        #expect(first != ThumbnailAsset(try HTTPInput(url: "http://h/m.mp4")))
    }

    @Test func fileReplacedInPlaceIsReadAgain() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("replaced-\(UUID().uuidString).mp4").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(try Fixtures.bytes("h264-faststart")).write(to: URL(fileURLWithPath: path))
        let service = ThumbnailService()
        let asset = ThumbnailAsset.file(path)
        let before = try await service.thumbnail(Self.request(asset))
        // Rewrite the same file (same inode) with another movie: other offsets, another picture.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(try Fixtures.bytes("mirrored")))
        try handle.close()
        let expected = try ThumbnailGenerator(path: Fixtures.path("mirrored"), options: Self.request(asset).options)
        let after = try await service.thumbnail(Self.request(asset))
        let reference = try await expected.image(at: .seconds(1))
        try #require(MD5.hex(reference.image.pixels) != MD5.hex(before.image.pixels))
        #expect(MD5.hex(after.image.pixels) == MD5.hex(reference.image.pixels))
        // Another time of the new file: read with a new index, not the old file's offsets.
        let later = try await service.thumbnail(Self.request(asset, time: 1.5))
        #expect(MD5.hex(later.image.pixels) == MD5.hex(try await expected.image(at: .seconds(1.5)).image.pixels))
        #expect(await service.statistics.indexLoads == 2)
    }
}
