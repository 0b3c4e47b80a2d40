import Foundation
import Synchronization

/// Ends a process a test started when the test process itself is gone: a test process that crashes or is killed
/// runs no `defer`, no `deinit`, so what it started would live on (a `thumbs serve`, a chromedriver and its
/// chromium). A shell watches both every half second and exits when the child does; when the test process is gone
/// first, it kills the child, and the processes whose command line mentions `alsoMentioning` (a browser's profile
/// directory: the chromium processes chromedriver started).
public enum OrphanGuard {
    /// The watching shells, kept so that Foundation reaps each when it exits.
    private static let watchers = Mutex<[Process]>([])

    /// Watches `pid`, a child of this test process.
    public static func watch(_ pid: Int32, alsoMentioning text: String = "") throws {
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: "/bin/sh")
        watcher.arguments = ["-c", "while kill -0 \"$1\" 2>/dev/null && kill -0 \"$2\" 2>/dev/null; do sleep 0.5; done; "
                             + "kill -0 \"$1\" 2>/dev/null && exit 0; kill -9 \"$2\" 2>/dev/null; "
                             + "[ -n \"$3\" ] && pkill -9 -f -- \"$3\"; exit 0",
                             "sh", String(getpid()), String(pid), text]
        watcher.standardOutput = FileHandle.nullDevice
        watcher.standardError = FileHandle.nullDevice
        try watcher.run()
        watchers.withLock { running in
            running.removeAll { !$0.isRunning }
            running.append(watcher)
        }
    }
}
