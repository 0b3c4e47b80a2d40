import ArgumentParser
import Foundation
import Thumbs

/// `thumbs batch --report`: one JSON object a line per input, as each finishes: `input`, `output`, `outcome` (`made`,
/// `skipped`, `failed`), `error` (`type` and `text`, when failed), `actualTime` (seconds, when made), `bytes` (body
/// bytes read for it) and `ms` (its time).
final class BatchReport {
    private let handle: FileHandle
    private let path: String

    /// A report written to `path` (replaced when there is one).
    /// - Throws: `ExitCode.ioError`, with a line on standard error, when it cannot be made.
    init(path: String) throws {
        self.path = path
        do {
            try Data().write(to: URL(fileURLWithPath: path))
            handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        } catch {
            printError("thumbs: --report \(path): \(fileFailureReason(error))")
            throw ExitCode.ioError
        }
    }

    /// Appends `result`'s line.
    /// - Throws: `ExitCode.ioError`, with a line on standard error, when it cannot be written.
    func write(_ result: BatchResult) throws {
        var line: [String: Any] = [
            "input": displayedInput(result.item.input.name), "output": result.item.output, "outcome": result.outcome.name,
            "bytes": result.bytesFetched, "ms": (result.duration.milliseconds * 10).rounded() / 10,
        ]
        if let actualTime = result.actualTime { line["actualTime"] = actualTime }
        if case .failed(let error) = result.outcome {
            line["error"] = ["type": String(describing: type(of: error)), "text": String(describing: error)]
        }
        do {
            var data = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys, .withoutEscapingSlashes])
            data.append(UInt8(ascii: "\n"))
            try handle.write(contentsOf: data)
        } catch {
            printError("thumbs: --report \(path): \(fileFailureReason(error))")
            throw ExitCode.ioError
        }
    }

    /// Closes the file.
    func close() throws {
        try? handle.close()
    }
}
