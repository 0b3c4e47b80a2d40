import Foundation
import MP4BoxTestSupport
import RangeFetch
import RangeFetchTestSupport
import Testing

/// `thumbs worker` against moto's S3 and SQS: a bucket notifies a queue (with a dead-letter queue) of each upload,
/// boto3 uploads as a user would, and the worker writes each picture under its prefix, a failure record for what
/// cannot make one, deletes every message, and exits 0 on SIGTERM.
/// The tests take turns: each adds a notification to the one bucket (read, then written whole).
@Suite(.enabled(if: MotoServer.isInstalled, "moto is installed by scripts/install-deps.sh"), .timeLimit(.minutes(3)), .serialized)
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
        // A job for an object under the output prefix: never made (a worker does not react to its own outputs).
        _ = try await moto.sqs(["send", queue.url, #"{"input": "s3://\#(moto.bucket)/\#(outputs)x.mp4"}"#], as: [String: Int].self)
        // A job message too, with an output prefix of its own.
        _ = try await moto.sqs(["send", queue.url, #"{"input": "s3://\#(moto.bucket)/movie.mp4", "output": "s3://\#(moto.bucket)/\#(outputs)jobs/"}"#],
                               as: [String: Int].self)

        let metricsPort = try Nginx.freePort()
        let (process, errors) = try Self.worker(moto, queue: queue.url, output: "s3://\(moto.bucket)/\(outputs)",
                                                extra: ["--metrics-port", String(metricsPort)])

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
        // What the worker says of itself: 4 pictures made, 2 failure records, 1 event ignored, nothing in flight.
        let metrics = try await HTTPInput(url: "http://127.0.0.1:\(metricsPort)/metrics").open(known: nil).read(0 ..< 65_536)
        let exposition = String(decoding: metrics, as: UTF8.self)
        #expect(exposition.contains("thumbs_worker_made_total 4\n") && exposition.contains("thumbs_worker_failed_total 2\n")
                && exposition.contains("thumbs_worker_ignored_total 1\n") && exposition.contains("thumbs_worker_in_flight 0\n"),
                "\(exposition)")
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
        _ = try await InfoCommandTests.run(["thumbnail", Fixtures.path("h264-faststart"), "-o", local, "--max-size", "64"])
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

    /// A worker process on the queue, with the store's environment.
    static func worker(_ moto: MotoServer, queue: String, output: String, extra: [String] = []) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = InfoCommandTests.binary
        process.arguments = ["worker", "--queue-url", queue, "-o", output, "--wait", "1", "--visibility", "6", "--max-size", "64",
                             "--jobs", "2"] + extra
        process.environment = ProcessInfo.processInfo.environment.merging([
            "AWS_ACCESS_KEY_ID": moto.accessKeyID, "AWS_SECRET_ACCESS_KEY": moto.secretAccessKey,
            "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL": moto.endpoint,
        ]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, errors)
    }

    /// The issue's run: 200 uploads (fixtures in several copies, two text files, one audio-only file) and three
    /// workers, one killed with SIGKILL and one stopped with SIGTERM while the uploads are being worked on: every
    /// picture is there, a failure record for each of the three that cannot make one, both queues empty; the stopped
    /// worker exits 0 within its grace period.
    @Test func twoHundredUploadsThreeWorkersOneKilledOneStopped() async throws {
        let moto = try #require(try await MotoServer.guarded.value)
        let run = UUID().uuidString.prefix(8)
        let (uploads, outputs) = ("many-\(run)/", "many-pictures-\(run)/")
        let queue = try await moto.sqs(["create", "many-\(run)", "--dead-letter-after", "5"], as: MotoServer.CreatedQueue.self)
        _ = try await moto.sqs(["notify", moto.bucket, uploads, queue.url], as: [String: Bool].self)
        let text = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(run).txt")
        try Data("not a movie\n".utf8).write(to: text)
        // Fixtures and real-world files (Media3's rotated and slow-motion MP4s, ts-ebml's Chrome 57 recording).
        let movies = [Fixtures.path("h264-faststart"), Fixtures.path("hevc-8bit"), Fixtures.path("rotate-90"), Fixtures.path("h264-bframes"),
                      Fixtures.directory.appendingPathComponent("matroska/vp9-8bit.cues-back.webm").path,
                      MediaCorpus.realWorld.path("media3-sample_rotate_and_reflect.mp4"), MediaCorpus.realWorld.path("media3-sample_sef_slow_motion.mp4"),
                      MediaCorpus.realWorld.path("tsebml-chrome57.webm")]
        var files: [String: String] = [:]
        for index in 0 ..< 197 {
            let movie = movies[index % movies.count]
            files["\(uploads)\(index / 50)/clip \(index).\((movie as NSString).pathExtension)"] = movie
        }
        files["\(uploads)notes-1.txt"] = text.path
        files["\(uploads)notes-2.txt"] = text.path
        files["\(uploads)sound.mp4"] = Fixtures.path("audio-only")
        let store = S3ObjectStore(configuration: S3Configuration(endpoint: moto.endpoint, credentials: AWSCredentials(
            accessKeyID: moto.accessKeyID, secretAccessKey: moto.secretAccessKey)))
        func written() async throws -> Set<String> {
            Set(try await store.list(bucket: moto.bucket, prefix: outputs).map { String($0.key.dropFirst(outputs.count)) })
        }
        let output = "s3://\(moto.bucket)/\(outputs)"
        let workers = try (0 ..< 3).map { _ in try Self.worker(moto, queue: queue.url, output: output, extra: ["--grace", "3"]) }
        _ = try await moto.sqs(["upload", moto.bucket] + files.map { "\($0.key)=\($0.value)" }, as: [String: Int].self)

        // At most a minute for each stage: a stage that does not come fails the test rather than hanging it.
        var done = try await written()
        for _ in 0 ..< 600 where done.count < 20 { try await Task.sleep(for: .milliseconds(100)); done = try await written() }
        kill(workers[0].0.processIdentifier, SIGKILL)
        for _ in 0 ..< 600 where done.count < 60 { try await Task.sleep(for: .milliseconds(100)); done = try await written() }
        #expect(done.count >= 60, "\(done.count) pictures after a minute")
        let stopped = ContinuousClock.now
        workers[1].0.terminate()
        let status = await Task.detached { workers[1].0.waitUntilExit(); return workers[1].0.terminationStatus }.value
        #expect(status == 0 && ContinuousClock.now - stopped < .seconds(6), "\(ContinuousClock.now - stopped)")

        let expected = Set(files.keys.map { key in
            let stem = (key as NSString).deletingPathExtension + ".png"
            return key.hasSuffix(".txt") || key.hasSuffix("sound.mp4") ? stem + ".error.json" : stem
        }.map { uploads + String($0.dropFirst(uploads.count)) })
        for _ in 0 ..< 1200 where done != expected {
            try await Task.sleep(for: .milliseconds(100))
            done = try await written()
        }
        // A message the killed worker had made the picture of but not deleted comes back after its visibility timeout
        // (6 s), and the last worker deletes it then (its picture is current): wait for the queue to empty, bounded.
        let empty = MotoServer.QueueCounts(visible: 0, inFlight: 0)
        for _ in 0 ..< 60 where try await moto.sqs(["count", queue.url], as: MotoServer.QueueCounts.self) != empty {
            try await Task.sleep(for: .milliseconds(500))
        }
        workers[2].0.terminate()
        let last = await Task.detached { workers[2].0.waitUntilExit(); return workers[2].0.terminationStatus }.value
        let said = String(decoding: workers[2].1.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(done == expected, "missing: \(expected.subtracting(done).sorted().prefix(5)); \(said)")
        #expect(last == 0)
        #expect(done.filter { $0.hasSuffix(".error.json") }.count == 3)
        // Every picture records the ETag of the upload it was made from.
        let sources = Dictionary(uniqueKeysWithValues: try await store.list(bucket: moto.bucket, prefix: uploads).map {
            ((String($0.key.dropFirst(uploads.count)) as NSString).deletingPathExtension, $0.etag ?? "")
        })
        var recorded = 0
        for picture in done where picture.hasSuffix(".png") {
            let stem = (String(picture.dropFirst(uploads.count)) as NSString).deletingPathExtension
            let head = try await store.head(S3Location(bucket: moto.bucket, key: outputs + picture))
            let source = try #require(sources[stem])
            if !source.isEmpty, head?.metadata["thumbs-source-version"]?.contains(source) == true { recorded += 1 }
        }
        #expect(recorded == 197)
        #expect(try await moto.sqs(["count", queue.url], as: MotoServer.QueueCounts.self) == empty)
        #expect(try await moto.sqs(["count", try #require(queue.deadLetterUrl)], as: MotoServer.QueueCounts.self) == empty)
    }
}
