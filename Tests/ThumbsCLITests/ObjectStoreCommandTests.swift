import Foundation
import MP4BoxTestSupport
import RangeFetchTestSupport
import Testing

/// `thumbs thumbnail` of objects in an S3-compatible store (moto, which checks every signature): `s3://` URLs signed
/// from the environment the AWS tools read, and presigned URLs; keys holding a space and a `+`.
@Suite(.enabled(if: MotoServer.isInstalled, "moto is installed by scripts/install-deps.sh"))
struct ObjectStoreCommandTests {
    static let name = "h264-bframes"
    static let keys = ["movie.mp4", "a b+c.mp4"]
    /// The thumbnail of the local fixture, the oracle.
    static func localThumbnail() async throws -> Data {
        let output = ThumbnailCommandTests.temporaryPath("local.png")
        let run = try await InfoCommandTests.run(["thumbnail", Fixtures.path(name), "-o", output])
        #expect(run.status == 0, "\(run.stderr)")
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }

    @Test(arguments: keys)
    func anS3URLGivesTheFilesThumbnail(_ key: String) async throws {
        let store = try #require(try await MotoServer.guarded.value)
        let output = ThumbnailCommandTests.temporaryPath("s3.png")
        let run = try await InfoCommandTests.run(["thumbnail", "s3://\(store.bucket)/\(key)", "-o", output, "--stats"], environment: [
            "AWS_ACCESS_KEY_ID": store.accessKeyID, "AWS_SECRET_ACCESS_KEY": store.secretAccessKey,
            "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL": store.endpoint,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == (try await Self.localThumbnail()))
        // Neither the secret nor the key ID shows in what the command prints.
        #expect(!run.stderr.contains(store.secretAccessKey) && !run.stderr.contains(store.accessKeyID))
    }

    @Test func aWrongSecretIsAnAccessDeniedNamingTheObjectAndNoCredential() async throws {
        let store = try #require(try await MotoServer.guarded.value)
        let run = try await InfoCommandTests.run(["thumbnail", "s3://\(store.bucket)/movie.mp4", "-o", ThumbnailCommandTests.temporaryPath("x.png")],
                                           environment: ["AWS_ACCESS_KEY_ID": store.accessKeyID, "AWS_SECRET_ACCESS_KEY": "not-the-secret",
                                                         "AWS_ENDPOINT_URL": store.endpoint])
        #expect(run.status != 0)
        #expect(run.stderr.contains("access denied (403)"), "\(run.stderr)")
        #expect(run.stderr.contains("/media/movie.mp4"), "\(run.stderr)")
        #expect(!run.stderr.contains("not-the-secret") && !run.stderr.contains(store.accessKeyID), "\(run.stderr)")
    }

    /// `thumbs batch s3://bucket/prefix/` lists every page of the prefix (ListObjectsV2) and makes each movie key's
    /// thumbnail at its path under the prefix: the same pictures as a batch of the local files they hold.
    @Test func aBatchOfPrefixesListsTheirMovies() async throws {
        let store = try #require(try await MotoServer.guarded.value)
        let environment = ["AWS_ACCESS_KEY_ID": store.accessKeyID, "AWS_SECRET_ACCESS_KEY": store.secretAccessKey,
                           "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL": store.endpoint]
        let remote = ThumbnailCommandTests.temporaryPath("s3-batch")
        let run = try await InfoCommandTests.run(["batch", "s3://\(store.bucket)/videos/", "s3://\(store.bucket)/clips/", "-o", remote],
                                                 environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let local = ThumbnailCommandTests.temporaryPath("local-batch")
        let localRun = try await InfoCommandTests.run(["batch", Fixtures.path("h264-faststart"),
                                                       Fixtures.directory.appendingPathComponent("matroska/chromium-vp9-60s.webm").path,
                                                       "-o", local])
        #expect(localRun.status == 0, "\(localRun.stderr)")
        let made = try FileManager.default.contentsOfDirectory(atPath: remote).filter { $0.hasSuffix(".png") }.sorted()
        #expect(made == ["a b+c.png", "recording +1.png"])
        for (remoteName, localName) in [("a b+c.png", "h264-faststart.png"), ("recording +1.png", "chromium-vp9-60s.png")] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: remote + "/" + remoteName))
                    == Data(contentsOf: URL(fileURLWithPath: local + "/" + localName)), "\(remoteName)")
        }
        #expect(!run.stderr.contains(store.secretAccessKey))
    }

    /// A prefix that cannot be listed (a bucket that is not there) stops the batch before any movie, naming it.
    @Test func aPrefixThatCannotBeListedIsOneError() async throws {
        let store = try #require(try await MotoServer.guarded.value)
        let run = try await InfoCommandTests.run(["batch", "s3://no-such-bucket/videos/", "-o", ThumbnailCommandTests.temporaryPath("none")],
                                                 environment: ["AWS_ACCESS_KEY_ID": store.accessKeyID, "AWS_SECRET_ACCESS_KEY": store.secretAccessKey,
                                                               "AWS_ENDPOINT_URL": store.endpoint])
        #expect(run.status != 0)
        #expect(run.stderr.contains("s3://no-such-bucket/videos/: cannot be listed"), "\(run.stderr)")
    }
}
