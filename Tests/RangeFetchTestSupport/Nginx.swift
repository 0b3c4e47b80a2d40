import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real nginx on a free loopback port serving a folder, for integration tests.
///
/// `@unchecked Sendable`: `process` is only touched in `init` and `deinit`, which nothing can run concurrently
/// with; every other stored property is an immutable value.
public final class Nginx: @unchecked Sendable {
    /// The port it listens on.
    public let port: Int
    /// Its temporary prefix folder (config, logs).
    public let directory: String
    private let process: Process

    /// The nginx binary, if installed.
    public static var binary: String? {
        ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts nginx serving `root`; nil when nginx is not installed. With `ignoresRange` it answers every request
    /// with 200 and the whole file (`max_ranges 0`), as a plain static server without Range support does.
    public convenience init?(root: String, ignoresRange: Bool = false) throws {
        try self.init { port, _ in
            """
            types { video/mp4 mp4; }
            server {
                listen 127.0.0.1:\(port);
                root \(root);
                \(ignoresRange ? "max_ranges 0;" : "")
            }
            """
        }
    }

    /// Starts nginx with what `http` gives for the inside of its `http` block (given the port to listen on and nginx's
    /// own folder, for caches); logs, temporary folders and the process are set up here. Nil when nginx is not
    /// installed.
    public init?(http: (_ port: Int, _ directory: String) -> String) throws {
        guard let binary = Self.binary else { return nil }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("thumbs-nginx-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/logs", withIntermediateDirectories: true)
        let port = try Self.freePort()
        let config = """
        daemon off;
        master_process off;
        worker_processes 1;
        error_log \(directory)/logs/error.log warn;
        pid \(directory)/nginx.pid;
        events { worker_connections 256; }
        http {
            access_log \(directory)/logs/access.log;
            client_body_temp_path \(directory)/body;
            proxy_temp_path \(directory)/proxy;
            fastcgi_temp_path \(directory)/fastcgi;
            uwsgi_temp_path \(directory)/uwsgi;
            scgi_temp_path \(directory)/scgi;
        \(http(port, directory))
        }
        """
        try config.write(toFile: directory + "/nginx.conf", atomically: true, encoding: .utf8)
        // A shell runs nginx and stops it when the test process is gone: static instances are never
        // deinitialised, so nothing else would stop it when the tests end.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\"$0\" -p \"$1\" -c \"$1/nginx.conf\" & n=$!; "
                             + "while kill -0 \"$2\" 2>/dev/null && kill -0 $n 2>/dev/null; do sleep 0.5; done; kill -9 $n 2>/dev/null; wait $n",
                             binary, directory, String(getpid())]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.port = port
        self.directory = directory
        self.process = process
        // Wait until it accepts connections: up to 30 s, as a loaded two-core machine may take seconds to start it;
        // at once when it has exited (a bad configuration, the port taken).
        for _ in 0..<1500 where process.isRunning {
            if Self.accepts(port: port) { return }
            usleep(20_000)
        }
        let log = (try? String(contentsOfFile: directory + "/logs/error.log", encoding: .utf8)) ?? ""
        Self.stopNginx(in: directory)
        process.terminate()
        throw NginxError(port: port, running: process.isRunning, errorLog: String(log.suffix(500)))
    }

    deinit {
        Self.stopNginx(in: directory)
        // Bounded: Foundation's Process can miss a child's exit under load (see CapturedRun).
        for _ in 0..<100 where process.isRunning { usleep(50_000) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Stops the nginx whose pid file is in `directory`.
    private static func stopNginx(in directory: String) {
        guard let text = try? String(contentsOfFile: directory + "/nginx.pid", encoding: .utf8),
              let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return }
        kill(pid, SIGKILL)  // the test process may block SIGTERM, and nginx inherits the mask
    }

    /// The URL of `name` under the root.
    public func url(_ name: String) -> String { "http://127.0.0.1:\(port)/\(name)" }

    /// Lines of nginx's access log.
    public var accessLog: [String] {
        ((try? String(contentsOfFile: directory + "/logs/access.log", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The requests logged for `path` (`/name`) and the body bytes nginx sent for them (`$body_bytes_sent` of the
    /// combined log format: the number after the status).
    public func sent(path: String) -> (requests: Int, bytes: Int) {
        var requests = 0
        var bytes = 0
        for line in accessLog where line.contains("\"GET \(path) ") {
            guard let requestEnd = line.range(of: "\" ", range: line.range(of: "\"GET ")!.upperBound..<line.endIndex) else { continue }
            let fields = line[requestEnd.upperBound...].split(separator: " ")
            guard fields.count >= 2, let sent = Int(fields[1]) else { continue }
            requests += 1
            bytes += sent
        }
        return (requests, bytes)
    }

    /// What `sent(path:)` shows for `path` past `before`, once at least `requests` are logged: nginx logs a request
    /// after answering it, so the last one may show a moment after its body arrived. After a second, what is there.
    public func sent(path: String, awaiting requests: Int,
                     since before: (requests: Int, bytes: Int) = (0, 0)) async throws -> (requests: Int, bytes: Int) {
        var sent = (requests: 0, bytes: 0)
        for _ in 0..<50 {
            let now = self.sent(path: path)
            sent = (now.requests - before.requests, now.bytes - before.bytes)
            if sent.requests >= requests { break }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        return sent
    }

    /// A free loopback port, from the kernel.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}


/// nginx did not accept connections: on which port, whether it was still running, the end of its error log.
public struct NginxError: Error, CustomStringConvertible {
    public let port: Int
    public let running: Bool
    public let errorLog: String

    public var description: String {
        "nginx did not accept connections on 127.0.0.1:\(port) " + (running ? "within 30 s" : "(it exited)")
            + (errorLog.isEmpty ? "" : ": \(errorLog)")
    }
}
