import Foundation
import Storyboards
import Synchronization

/// A progress line on a terminal's standard error, redrawn in place at most ten times a second (the last state
/// always).
final class ProgressLine: Sendable {
    private let last = Mutex<(shown: ContinuousClock.Instant?, width: Int)>((nil, 0))

    /// A line when standard error is a terminal, else nil: progress is quiet in a pipe or a log.
    static func onTerminal() -> ProgressLine? {
        isatty(2) == 1 ? ProgressLine() : nil
    }

    /// What a storyboard maker calls with its progress: cues done / total, keyframes, bytes fetched and rate.
    var reporter: @Sendable (StoryboardProgress) -> Void {
        { progress in
            self.show(String(format: "cues %d/%d  keyframes %d/%d  %.1f MB  %.1f MB/s", progress.cuesDone, progress.cueCount,
                             progress.keyframesDone, progress.keyframeCount, Double(progress.bytesFetched) / 1e6,
                             progress.bytesPerSecond / 1e6),
                      isLast: progress.cuesDone == progress.cueCount)
        }
    }

    /// Draws `text` in place of the line, unless one was drawn less than 0.1 s ago and this is not the last.
    func show(_ text: String, isLast: Bool = false) {
        let now = ContinuousClock.now
        let done = isLast
        let padding: Int? = last.withLock { state in
            if !done, let shown = state.shown, now - shown < .milliseconds(100) { return nil }
            state.shown = now
            defer { state.width = text.count }
            return max(0, state.width - text.count)
        }
        guard let padding else { return }
        FileHandle.standardError.write(Data(("\r" + text + String(repeating: " ", count: padding)).utf8))
    }

    /// Writes `message` on a line of its own above the progress line (which is drawn again at the next `show`).
    func interrupt(with message: String) {
        let width = last.withLock { state in
            defer { state = (nil, 0) }
            return state.width
        }
        FileHandle.standardError.write(Data(("\r" + String(repeating: " ", count: width) + "\r").utf8))
        printError(message)
    }

    /// Ends the line, once: later calls do nothing until it is drawn again.
    func end() {
        let drawn = last.withLock { state in
            defer { state = (nil, 0) }
            return state.shown != nil
        }
        if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
