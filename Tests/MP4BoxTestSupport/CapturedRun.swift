import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process run to its end, with what it wrote to standard output and error.
///
/// Started with posix_spawn and waited for with waitpid on the calling thread, not through Foundation's `Process`:
/// under a full parallel test run `Process.waitUntilExit()` once never returned for a child that had exited (its
/// exit went unnoticed by Foundation's monitor, the child left a zombie), and the run hung until killed. The output
/// goes to files read once the child has exited, not to pipes read to their end: a process another test starts at
/// the same moment (nginx, moto, a server) can inherit a pipe's write end and keep it open for the whole run. The
/// child starts with no signals blocked and SIGTERM, SIGINT and SIGPIPE at their defaults, whatever the test
/// process blocks.
public struct CapturedRun: Sendable {
    public var status: Int32
    public var stdout: Data
    public var stderr: Data

    /// Why a child could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `executable` with `arguments` (and `environment`, when given, as its whole environment; else this
    /// process's) and waits for it on the calling thread. `status` is the exit status, or 128 + the signal that
    /// ended it.
    public static func waiting(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws -> CapturedRun {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("captured-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outPath = directory.appendingPathComponent("stdout").path
        let errPath = directory.appendingPathComponent("stderr").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let environment = environment ?? ProcessInfo.processInfo.environment
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            throw Failure(description: "posix_spawn \(executable.path): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw Failure(description: "waitpid \(pid): \(String(cString: strerror(errno)))") }
        }
        let signal = status & 0x7F
        return CapturedRun(status: signal == 0 ? (status >> 8) & 0xFF : 128 + signal,
                           stdout: try Data(contentsOf: URL(fileURLWithPath: outPath)),
                           stderr: try Data(contentsOf: URL(fileURLWithPath: errPath)))
    }
}
