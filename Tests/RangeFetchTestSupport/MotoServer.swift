import Foundation
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

    /// Starts moto and puts `objects` (key to bytes) in `bucket`; with `enforcesAuth`, every request after that must
    /// be signed with the user's key (moto checks Signature Version 4 in the Authorization header). Nil when moto
    /// is not installed.
    public init?(bucket: String, objects: [String: [UInt8]], enforcesAuth: Bool) throws {
        guard Self.isInstalled else { return nil }
        let port = try Nginx.freePort()
        endpoint = "http://127.0.0.1:\(port)"
        self.bucket = bucket
        process = Process()
        process.executableURL = Self.environment.appendingPathComponent("bin/moto_server")
        process.arguments = ["-H", "127.0.0.1", "-p", "\(port)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var started = false
        for _ in 0..<300 where !started {
            started = Nginx.accepts(port: port)
            if !started { usleep(50_000) }
        }
        guard started else {
            process.terminate()
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
        let setup = Process()
        setup.executableURL = Self.environment.appendingPathComponent("bin/python")
        setup.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        setup.standardOutput = output
        setup.standardError = errors
        try setup.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        setup.waitUntilExit()
        struct Printed: Decodable {
            var accessKeyID: String
            var secretAccessKey: String
            var presigned: [String: String]
        }
        guard setup.terminationStatus == 0, let values = try? JSONDecoder().decode(Printed.self, from: printed) else {
            process.terminate()
            throw MotoError("moto-setup.py failed: \(String(decoding: complaint, as: UTF8.self))")
        }
        accessKeyID = values.accessKeyID
        secretAccessKey = values.secretAccessKey
        presigned = values.presigned
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}

/// Why moto could not be started.
public struct MotoError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
