import Foundation
import RangeFetch
import RangeFetchTestSupport
import Testing

/// Objects written, looked at and listed in a real S3-compatible server (moto, checking every Signature Version 4,
/// the payload's SHA-256 included): what is written reads back as written, with its type, caching and metadata, and
/// a listing of many pages names every key under a prefix.
@Suite(.enabled(if: MotoServer.isInstalled, "moto is installed by scripts/install-deps.sh"), .timeLimit(.minutes(2)))
struct S3ObjectStoreTests {
    static func store(secret: String? = nil) async throws -> (S3ObjectStore, bucket: String, S3Configuration) {
        let moto = try #require(try await MotoServer.guarded.value)
        let configuration = S3Configuration(endpoint: moto.endpoint, credentials: AWSCredentials(
            accessKeyID: moto.accessKeyID, secretAccessKey: secret ?? moto.secretAccessKey))
        return (S3ObjectStore(configuration: configuration), moto.bucket, configuration)
    }

    @Test func anObjectWrittenReadsBackWithItsTypeCachingAndMetadata() async throws {
        let (store, bucket, configuration) = try await Self.store()
        let location = S3Location(bucket: bucket, key: "written/\(UUID().uuidString)/a b+c.png")
        let bytes = (0 ..< 70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(try await store.head(location) == nil)
        let etag = try await store.put(bytes, at: location, contentType: "image/png", cacheControl: "public, max-age=86400",
                                       metadata: ["source-etag": "\"abc\"", "options": "sha256:1234", "version": "ETag: \"x\"\nLength: 5 100% é"])
        let head = try #require(try await store.head(location))
        #expect(head.etag != nil && head.etag == etag)
        #expect(head.length == UInt64(bytes.count) && head.contentType == "image/png")
        #expect(head.metadata == ["source-etag": "\"abc\"", "options": "sha256:1234", "version": "ETag: \"x\"\nLength: 5 100% é"])
        // The bytes, through the reader of objects.
        let source = try S3Input(location, configuration: configuration).open(known: nil)
        #expect(try await source.read(0 ..< UInt64(bytes.count)) == bytes)
    }

    @Test func aListingOfSeveralPagesNamesEveryKeyUnderThePrefix() async throws {
        let (store, bucket, _) = try await Self.store()
        let prefix = "listed/\(UUID().uuidString)/"
        let keys = (0 ..< 7).map { prefix + "clip \($0).mp4" } + [prefix + "deeper/x.webm"]
        for key in keys { try await store.put([1, 2, 3], at: S3Location(bucket: bucket, key: key), contentType: "video/mp4") }
        try await store.put([4], at: S3Location(bucket: bucket, key: "listed/other.mp4"), contentType: "video/mp4")
        let listed = try await store.list(bucket: bucket, prefix: prefix, pageSize: 3)
        #expect(listed.map(\.key) == keys.sorted())
        #expect(listed.allSatisfy { $0.size == 3 && $0.etag != nil })
    }

    @Test func aWrongSecretIsRefusedAndAMissingBucketIsNotFound() async throws {
        let (store, bucket, _) = try await Self.store(secret: "not-the-secret")
        await #expect { try await store.put([1], at: S3Location(bucket: bucket, key: "refused.png"), contentType: "image/png") } throws: { error in
            (error as? FetchError)?.code == .forbidden && !"\(error)".contains("not-the-secret")
        }
        let (good, _, _) = try await Self.store()
        await #expect { try await good.list(bucket: "no-such-bucket", prefix: "") } throws: { error in
            (error as? FetchError)?.code == .notFound
        }
    }
}
