import Foundation
import MP4BoxTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// moto's standalone S3-compatible server (PyPI `moto[server]`, installed by scripts/install-deps.sh into
/// `.build/moto-venv`) on a free loopback port, filled by `moto-setup.py` with boto3: a bucket, its objects, an IAM
/// user's access key that may read them, and presigned URLs.
///
/// `@unchecked Sendable`: `process` is only touched in `init` and `deinit`, which nothing can run concurrently with;
/// every other stored property is an immutable value.
public final class MotoServer: @unchecked Sendable {
    /// Its endpoint, `http://127.0.0.1:port`.
    public let endpoint: String
    /// The bucket.
    public let bucket: String
    /// The access key ID of the user that may read the objects.
    public let accessKeyID: String
    /// Its secret.
    public let secretAccessKey: String
    /// A presigned URL (boto3's) of each object, by key.
    public let presigned: [String: String]
    private let process: Process

    /// The virtual environment moto and boto3 are installed in.
    public static let environment = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../.build/moto-venv").standardized

    /// Whether moto's server is installed (scripts/install-deps.sh installs it).
    public static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: environment.appendingPathComponent("bin/moto_server").path)
    }

    /// The bucket every moto of `open` and `guarded` holds.
    public static let bucket = "media"

    /// What that bucket holds: key, and the fixture (in `Fixtures/`) it holds (a WebM recording and a TS file among them), keys with a
    /// space and a `+` among them;
    /// and under `streams/`, FFmpeg's HLS cuts of h264-bframes (fMP4 and MPEG-TS segments) as their playlists name them.
    public static let catalogue: [String: String] = {
        var catalogue = [
            "movie.mp4": "h264-bframes.mp4", "a b+c.mp4": "h264-bframes.mp4",
            "h264-faststart +1.mp4": "h264-faststart.mp4", "h264-bframes +1.mp4": "h264-bframes.mp4",
            "fragmented +1.mp4": "fragmented.mp4",
            "videos/a b+c.mp4": "h264-faststart.mp4", "private/a.mp4": "h264-faststart.mp4",
            "clips/recording +1.webm": "matroska/chromium-vp9-60s.webm",
            "recordings/search 30s.ts": "transport/search-30s.ts",
        ]
        for (folder, files) in [("ffmpeg-hls-fmp4-h264-bframes", ["index.m3u8", "init.mp4"] + (0..<4).map { "segment\($0).m4s" }),
                                ("ffmpeg-hls-ts-h264-bframes", ["index.m3u8"] + (0..<7).map { "segment\($0).ts" })] {
            for file in files { catalogue["streams/\(folder)/\(file)"] = "streams/\(folder)/\(file)" }
        }
        return catalogue
    }()

    /// One moto for the whole test run that accepts any request (presigned URLs: it does not check their query's
    /// signature, only finds the key), holding `catalogue`; nil when moto is not installed.
    public static let open = Task { try await start(bucket: bucket, objects: try catalogueBytes(), enforcesAuth: false) }

    /// One moto for the whole test run that checks every request's Signature Version 4 against its user's key,
    /// holding `catalogue`; nil when moto is not installed. (Each moto and its boto3 set-up take a core for seconds:
    /// the test targets share these two rather than start their own.)
    public static let guarded = Task { try await start(bucket: bucket, objects: try catalogueBytes(), enforcesAuth: true) }

    static func catalogueBytes() throws -> [String: [UInt8]] {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Fixtures").standardized
        return try catalogue.mapValues { [UInt8](try Data(contentsOf: fixtures.appendingPathComponent($0))) }
    }

    /// `init(bucket:objects:enforcesAuth:)` on a thread of its own: starting moto and filling it takes seconds of
    /// waiting for processes, which must not hold one of the few threads Swift concurrency runs tests on (the HTTP
    /// tests' bodies would wait for a thread past their read timeout).
    public static func start(bucket: String, objects: [String: [UInt8]], enforcesAuth: Bool) async throws -> MotoServer? {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try MotoServer(bucket: bucket, objects: objects, enforcesAuth: enforcesAuth) })
            }
        }
    }

    /// Starts moto and puts `objects` (key to bytes) in `bucket`; with `enforcesAuth`, every request after that must
    /// be signed with the user's key (moto checks Signature Version 4 in the Authorization header). Nil when moto
    /// is not installed. It waits for processes: call it through `start(bucket:objects:enforcesAuth:)` from tests.
    public init?(bucket: String, objects: [String: [UInt8]], enforcesAuth: Bool) throws {
        guard Self.isInstalled else { return nil }
        let port = try Nginx.freePort()
        endpoint = "http://127.0.0.1:\(port)"
        self.bucket = bucket
        // A shell runs moto and stops it when the test process is gone: static instances are never deinitialised,
        // so nothing else would stop it when the tests end (as `Nginx` does).
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\"$0\" -H 127.0.0.1 -p \"$1\" & n=$!; "
                             + "while kill -0 \"$2\" 2>/dev/null && kill -0 $n 2>/dev/null; do sleep 0.5; done; kill -9 $n 2>/dev/null; wait $n",
                             Self.environment.appendingPathComponent("bin/moto_server").path, String(port), String(getpid())]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var started = false
        for _ in 0..<300 where !started {
            started = Nginx.accepts(port: port)
            if !started { usleep(50_000) }
        }
        guard started else {
            Self.stop(process)
            throw MotoError("moto_server did not listen on \(port) within 15 s")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var arguments = [URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("moto-setup.py").path,
                         endpoint, bucket]
        for (index, (key, bytes)) in objects.sorted(by: { $0.key < $1.key }).enumerated() {
            let file = folder.appendingPathComponent("\(index)")
            try Data(bytes).write(to: file)
            arguments.append("\(key)=\(file.path)")
        }
        if enforcesAuth { arguments.append("--enforce-auth") }
        let setup = try CapturedRun.waiting(Self.environment.appendingPathComponent("bin/python"), arguments)
        let (printed, complaint) = (setup.stdout, setup.stderr)
        struct Printed: Decodable {
            var accessKeyID: String
            var secretAccessKey: String
            var presigned: [String: String]
        }
        guard setup.status == 0, let values = try? JSONDecoder().decode(Printed.self, from: printed) else {
            Self.stop(process)
            throw MotoError("moto-setup.py failed: \(String(decoding: complaint, as: UTF8.self))")
        }
        accessKeyID = values.accessKeyID
        secretAccessKey = values.secretAccessKey
        presigned = values.presigned
    }

    deinit {
        Self.stop(process)
    }

    /// A queue `moto-sqs.py create` made: its URL, and its dead-letter queue's when asked for.
    public struct CreatedQueue: Decodable, Sendable {
        public var url: String
        public var deadLetterUrl: String?
    }

    /// What `moto-sqs.py count` says of a queue: messages visible, and received but not deleted.
    public struct QueueCounts: Decodable, Sendable, Equatable {
        public var visible: Int
        public var inFlight: Int

        public init(visible: Int, inFlight: Int) {
            self.visible = visible
            self.inFlight = inFlight
        }
    }

    /// Runs `moto-sqs.py` (boto3, as the test user: making queues, sending messages) with `arguments` after the
    /// endpoint and the user's keys, on a thread of its own; what it printed, decoded as `T`.
    public func sqs<T: Decodable & Sendable>(_ arguments: [String], as type: T.Type = T.self) async throws -> T {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("moto-sqs.py").path
        let python = Self.environment.appendingPathComponent("bin/python")
        let all = [script, endpoint, accessKeyID, secretAccessKey] + arguments
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    let run = try CapturedRun.waiting(python, all)
                    guard run.status == 0 else { throw MotoError("moto-sqs.py \(arguments.first ?? ""): \(String(decoding: run.stderr, as: UTF8.self))") }
                    return try JSONDecoder().decode(T.self, from: run.stdout)
                })
            }
        }
    }

    /// Stops the shell and the moto it started, outright: the test process may block SIGTERM, and moto inherits the mask.
    private static func stop(_ process: Process) {
        let shell = process.processIdentifier
        if let children = try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8) {
            for child in children.split(separator: " ").compactMap({ Int32($0) }) { kill(child, SIGKILL) }
        }
        process.terminate()
        // Bounded: Foundation's Process can miss a child's exit under load (see CapturedRun).
        for _ in 0..<100 where process.isRunning { usleep(50_000) }
    }
}

/// Why moto could not be started.
public struct MotoError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
