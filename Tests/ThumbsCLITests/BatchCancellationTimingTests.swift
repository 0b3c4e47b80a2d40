import Foundation
import MP4BoxTestSupport
import Testing

/// How soon `thumbs batch` exits after Ctrl-C, timed: run alone after the parallel run (scripts/test.sh), and timed on
/// a thread of its own, so that other tests' work does not stretch what is measured.
@Suite struct BatchCancellationTimingTests {
    /// Starts `arguments`, sends SIGINT after `seconds`, and gives the exit status and how long after the signal the
    /// process ended, all on a thread of its own.
    static func interrupted(_ arguments: [String], after seconds: Double) async throws -> (status: Int32, took: Duration) {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result {
                    let process = Process()
                    process.executableURL = InfoCommandTests.binary
                    process.arguments = arguments
                    process.standardOutput = FileHandle.nullDevice
                    process.standardError = FileHandle.nullDevice
                    try process.run()
                    Thread.sleep(forTimeInterval: seconds)
                    let signalled = ContinuousClock.now
                    kill(process.processIdentifier, SIGINT)
                    process.waitUntilExit()
                    return (process.terminationStatus, ContinuousClock.now - signalled)
                })
            }.start()
        }
    }

    /// Ctrl-C while full-size 4K pictures are decoded, rendered and encoded: the process exits within a second
    /// (status 130, nothing of the pictures under way written). It waited for them: 2.7 and 3.5 s here in a debug
    /// build, as the signal's handler ran on a thread that the pictures kept busy.
    @Test(.timeLimit(.minutes(2)), arguments: [0.6, 1.2])
    func ctrlCDuringFullSizePicturesExitsWithinASecond(after seconds: Double) async throws {
        let scratch = try BatchCommandTests.Scratch(["one.mp4": "h264-2160p"])
        defer { scratch.remove() }
        for number in 0..<47 {
            let folder = scratch.path("links/\(number)")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.linkItem(atPath: scratch.path("one.mp4"), toPath: folder + "/one.mp4")
        }
        let (status, took) = try await Self.interrupted(["batch", scratch.path("links"), "-o", scratch.path("out")],
                                                        after: seconds)
        #expect(status == 130)
        #expect(took < .seconds(1), "exited \(took) after SIGINT")
        #expect(!scratch.files(under: "out").contains { $0.contains(".partial-") })
    }
}
