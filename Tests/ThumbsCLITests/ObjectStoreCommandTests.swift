import Foundation
import MP4BoxTestSupport
import RangeFetch
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

    /// `thumbs batch -o s3://bucket/prefix/`: every thumbnail (and storyboard file) an object under the prefix, with
    /// its media type, Cache-Control and record (the source's ETag as HEAD says it, the options' key) as metadata; a
    /// second batch skips them all by HEADs; `--force` makes them again.
    @Test func aBatchWritesToAPrefixAndSkipsWhatIsCurrent() async throws {
        let moto = try #require(try await MotoServer.guarded.value)
        let environment = ["AWS_ACCESS_KEY_ID": moto.accessKeyID, "AWS_SECRET_ACCESS_KEY": moto.secretAccessKey,
                           "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL": moto.endpoint]
        let prefix = "out-\(UUID().uuidString)/"
        let store = S3ObjectStore(configuration: S3Configuration(endpoint: moto.endpoint, credentials: AWSCredentials(
            accessKeyID: moto.accessKeyID, secretAccessKey: moto.secretAccessKey)))
        func batch(_ extra: [String]) async throws -> [String] {
            let report = ThumbnailCommandTests.temporaryPath("report.jsonl")
            let run = try await InfoCommandTests.run(["batch", "s3://\(moto.bucket)/videos/", "s3://\(moto.bucket)/clips/",
                                                      "-o", "s3://\(moto.bucket)/\(prefix)", "--storyboard", "--report", report] + extra,
                                                     environment: environment)
            #expect(run.status == 0, "\(run.stderr)")
            return try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").compactMap { line in
                (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["outcome"] as? String
            }
        }
        #expect(try await batch([]) == ["made", "made"])
        let thumbnail = try #require(try await store.head(S3Location(bucket: moto.bucket, key: prefix + "a b+c.png")))
        let source = try #require(try await store.head(S3Location(bucket: moto.bucket, key: "videos/a b+c.mp4")))
        #expect(thumbnail.contentType == "image/png")
        #expect(thumbnail.metadata["thumbs-source-version"]?.contains(try #require(source.etag)) == true, "\(thumbnail.metadata)")
        #expect(thumbnail.metadata["thumbs-options"]?.contains("format=png") == true)
        let keys = try await store.list(bucket: moto.bucket, prefix: prefix).map { String($0.key.dropFirst(prefix.count)) }
        #expect(keys.contains("a b+c.png") && keys.contains("recording +1.png"))
        #expect(keys.contains("a b+c.storyboard/storyboard.vtt"), "\(keys)")
        // The picture is the local file's.
        let local = ThumbnailCommandTests.temporaryPath("local.png")
        _ = try await InfoCommandTests.run(["thumbnail", Fixtures.path("h264-faststart"), "-o", local])
        let written = try await S3Input(S3Location(bucket: moto.bucket, key: prefix + "a b+c.png"), configuration: store.configuration)
            .open(known: nil).read(0 ..< UInt64(thumbnail.length ?? 0))
        #expect(Data(written) == (try Data(contentsOf: URL(fileURLWithPath: local))))

        #expect(try await batch([]) == ["skipped", "skipped"])
        #expect(try await batch(["--force"]) == ["made", "made"])
    }

    /// `thumbs thumbnail -o s3://bucket/key` puts the picture with its record; run again, it says the object is current
    /// and makes nothing (the object is the same one); `storyboard -o s3://bucket/prefix/` puts every sheet and track.
    @Test func aThumbnailAndAStoryboardWrittenToTheStore() async throws {
        let moto = try #require(try await MotoServer.guarded.value)
        let environment = ["AWS_ACCESS_KEY_ID": moto.accessKeyID, "AWS_SECRET_ACCESS_KEY": moto.secretAccessKey,
                           "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL": moto.endpoint]
        let store = S3ObjectStore(configuration: S3Configuration(endpoint: moto.endpoint, credentials: AWSCredentials(
            accessKeyID: moto.accessKeyID, secretAccessKey: moto.secretAccessKey)))
        let folder = "single-\(UUID().uuidString)/"
        let target = "s3://\(moto.bucket)/\(folder)movie.jpg"
        let first = try await InfoCommandTests.run(["thumbnail", "s3://\(moto.bucket)/movie.mp4", "-o", target], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let written = try #require(try await store.head(S3Location(bucket: moto.bucket, key: folder + "movie.jpg")))
        #expect(written.contentType == "image/jpeg" && written.metadata["thumbs-options"]?.contains("format=jpeg") == true)
        let again = try await InfoCommandTests.run(["thumbnail", "s3://\(moto.bucket)/movie.mp4", "-o", target], environment: environment)
        #expect(again.status == 0 && again.stderr.contains("current"), "\(again.stderr)")
        #expect(try await store.head(S3Location(bucket: moto.bucket, key: folder + "movie.jpg"))?.etag == written.etag)
        // Other options: made again.
        let larger = try await InfoCommandTests.run(["thumbnail", "s3://\(moto.bucket)/movie.mp4", "-o", target, "--max-size", "64"],
                                                    environment: environment)
        #expect(larger.status == 0 && !larger.stderr.contains("current"), "\(larger.stderr)")

        let sheets = try await InfoCommandTests.run(["storyboard", Fixtures.path(Self.name), "-o", "s3://\(moto.bucket)/\(folder)board/"],
                                                    environment: environment)
        #expect(sheets.status == 0, "\(sheets.stderr)")
        let keys = try await store.list(bucket: moto.bucket, prefix: folder + "board/").map { String($0.key.dropFirst(folder.count + 6)) }
        #expect(keys.contains("storyboard.vtt") && keys.contains { $0.hasSuffix(".jpg") }, "\(keys)")
        let vtt = try #require(try await store.head(S3Location(bucket: moto.bucket, key: folder + "board/storyboard.vtt")))
        #expect(vtt.contentType == "text/vtt")
    }
}
