import Foundation
import MP4BoxTestSupport
import RangeFetch
import RangeFetchTestSupport
import Testing
@testable import ThumbsServer

/// `thumbs serve` with `--allow-origin s3://bucket/prefix`: objects of an S3-compatible store (moto, which checks
/// every signature) under the prefix are read with the server's own credentials; others are refused.
@Suite(.timeLimit(.minutes(2))) struct ObjectStoreRouteTests {
    @Test(arguments: [
        ("s3://media/videos/a b+c.mp4", true),
        ("s3://media/videos/deep/clip.mp4", true),
        ("s3://media/videos", true),    // the object the prefix names itself
        ("s3://media/videos-private/a.mp4", false),
        ("s3://media/other/a.mp4", false),
        ("s3://other/videos/a.mp4", false),
        ("s3://Media/videos/a.mp4", false),
        ("https://media/videos/a.mp4", false),
    ])
    func s3PrefixesCompareTheBucketAndTheKey(url: String, allowed: Bool) throws {
        let prefix = try OriginPrefix("s3://media/videos")
        #expect((ParsedURL(s3: url, prefix: false).map { prefix.contains($0) } ?? false) == allowed)
        let bucket = try OriginPrefix("s3://media/")
        #expect((ParsedURL(s3: url, prefix: false).map { bucket.contains($0) } ?? false) == url.hasPrefix("s3://media/"))
    }

    @Test func s3PrefixesThatNameNoBucketAreRefused() {
        for text in ["s3://", "s3:///videos", "s3://Bad_Case/x", "s3://media"] {
            #expect(throws: ServerError.self, "\(text)") { try OriginPrefix(text) }
        }
    }

    @Test(.enabled(if: MotoServer.isInstalled, "moto is installed by scripts/install-deps.sh"))
    func anObjectUnderAnAllowedPrefixIsServedAndOthersAreRefused() async throws {
        let store = try #require(try await MotoServer.guarded.value)
        var configuration = ServerConfiguration()
        configuration.allowedOrigins = [try OriginPrefix("s3://media/videos/")]
        configuration.s3 = S3Configuration(endpoint: store.endpoint,
                                           credentials: AWSCredentials(accessKeyID: store.accessKeyID, secretAccessKey: store.secretAccessKey))
        try await RunningServer.with(configuration) { server in
            let object = "s3://media/videos/a b+c.mp4".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let answer = try await server.get("/thumbnail.png?url=\(object)&width=64")
            #expect(answer.status == 200, "\(answer.error)")
            #expect(answer.headers["content-type"] == "image/png")
            let outside = "s3://media/private/a.mp4".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let refused = try await server.get("/thumbnail.png?url=\(outside)&width=64")
            #expect(refused.status == 403)
            #expect(!String(decoding: refused.body, as: UTF8.self).contains(store.secretAccessKey))
        }
    }
}
