import Foundation
import MP4BoxTestSupport
import RangeFetch
import RangeFetchTestSupport
import Testing

/// `thumbs worker` against moto's S3 and SQS: a bucket notifies a queue (with a dead-letter queue) of each upload,
/// boto3 uploads as a user would, and the worker writes each picture under its prefix, a failure record for what
/// cannot make one, deletes every message, and exits 0 on SIGTERM.
@Suite(.enabled(if: MotoServer.isInstalled, "moto is installed by scripts/install-deps.sh"), .timeLimit(.minutes(3)))
struct WorkerCommandTests {
    @Test func uploadsBecomePicturesAndFailureRecords() async throws {
        let moto = try #require(try await MotoServer.guarded.value)
        let run = UUID().uuidString.prefix(8)
        let (uploads, outputs) = ("uploads-\(run)/", "pictures-\(run)/")
        let queue = try await moto.sqs(["create", "worker-\(run)", "--dead-letter-after", "3"], as: MotoServer.CreatedQueue.self)
        _ = try await moto.sqs(["notify", moto.bucket, uploads, queue.url], as: [String: Bool].self)
        let text = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(run).txt")
        try Data("not a movie\n".utf8).write(to: text)
        let files = [
            "\(uploads)a b+c.mp4": Fixtures.path("h264-faststart"),
            "\(uploads)clips/recording.webm": Fixtures.directory.appendingPathComponent("matroska/chromium-vp9-60s.webm").path,
            "\(uploads)hevc.mp4": Fixtures.path("hevc-8bit"),
            "\(uploads)notes.txt": text.path,
            "\(uploads)sound.mp4": Fixtures.path("audio-only"),
        ]
        _ = try await moto.sqs(["upload", moto.bucket] + files.map { "\($0.key)=\($0.value)" }, as: [String: Int].self)
        // A job message too, with an output prefix of its own.
        _ = try await moto.sqs(["send", queue.url, #"{"input": "s3://\#(moto.bucket)/movie.mp4", "output": "s3://\#(moto.bucket)/\#(outputs)jobs/"}"#],
                               as: [String: Int].self)

        let process = Process()
        process.executableURL = InfoCommandTests.binary
        process.arguments = ["worker", "--queue-url", queue.url, "-o", "s3://\(moto.bucket)/\(outputs)", "--wait", "1",
                             "--visibility", "30", "--max-size", "96"]
        process.environment = ProcessInfo.processInfo.environment.merging([
            "AWS_ACCESS_KEY_ID": moto.accessKeyID, "AWS_SECRET_ACCESS_KEY": moto.secretAccessKey,
            "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL": moto.endpoint,
        ]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()

        let store = S3ObjectStore(configuration: S3Configuration(endpoint: moto.endpoint, credentials: AWSCredentials(
            accessKeyID: moto.accessKeyID, secretAccessKey: moto.secretAccessKey)))
        // Each picture at its input's key (with the format's extension) under the prefix.
        let expected = Set(["a b+c.png", "clips/recording.png", "hevc.png", "notes.png.error.json", "sound.png.error.json"]
            .map { uploads + $0 } + ["jobs/movie.png"])
        var written: Set<String> = []
        for _ in 0 ..< 240 where written != expected {
            try await Task.sleep(for: .milliseconds(250))
            written = Set(try await store.list(bucket: moto.bucket, prefix: outputs).map { String($0.key.dropFirst(outputs.count)) })
        }
        process.terminate()  // SIGTERM
        let exited = Task.detached { process.waitUntilExit(); return process.terminationStatus }
        let status = await exited.value
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(written == expected, "\(said)")
        #expect(status == 0, "\(said)")
        #expect(try await moto.sqs(["count", queue.url], as: MotoServer.QueueCounts.self) == MotoServer.QueueCounts(visible: 0, inFlight: 0))
        #expect(try await moto.sqs(["count", try #require(queue.deadLetterUrl)], as: MotoServer.QueueCounts.self) == MotoServer.QueueCounts(visible: 0, inFlight: 0))

        // The pictures are the files' own, with their records; the failure records name the error.
        let local = ThumbnailCommandTests.temporaryPath("local.png")
        _ = try await InfoCommandTests.run(["thumbnail", Fixtures.path("h264-faststart"), "-o", local, "--max-size", "96"])
        let picture = try #require(try await store.head(S3Location(bucket: moto.bucket, key: outputs + uploads + "a b+c.png")))
        let bytes = try await S3Input(S3Location(bucket: moto.bucket, key: outputs + uploads + "a b+c.png"), configuration: store.configuration)
            .open(known: nil).read(0 ..< UInt64(picture.length ?? 0))
        #expect(Data(bytes) == (try Data(contentsOf: URL(fileURLWithPath: local))))
        #expect(picture.metadata["thumbs-source-version"] != nil)
        let record = try await S3Input(S3Location(bucket: moto.bucket, key: outputs + uploads + "sound.png.error.json"), configuration: store.configuration)
            .open(known: nil).read(0 ..< 4096)
        let failure = try #require(try JSONSerialization.jsonObject(with: Data(record)) as? [String: String])
        #expect(failure["type"] == "ThumbnailError" && failure["text"]?.contains("video") == true, "\(failure)")
        #expect(!said.contains(moto.secretAccessKey))
    }
}
