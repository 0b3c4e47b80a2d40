import ArgumentParser
import Foundation
import Thumbs
import ThumbsBatch

/// `thumbs batch --report`: one JSON object a line per input, as each finishes: `input`, `output`, `outcome` (`made`,
/// `skipped`, `failed`), `error` (`type` and `text`, when failed), `actualTime` (seconds, when made), `bytes` (body
/// bytes read for it) and `ms` (its time). Both paths are as the command line gave them: `input` as named (a
/// directory's movie under the directory as named; a URL without its query), `output` under `-o` as named; where the
/// input is an absolute path and `-o` is not, `output` is absolute too (`-o` from the working directory), so a line
/// never mixes an absolute input with a relative output.
final class BatchReport {
    private let handle: FileHandle
    private let path: String
    /// `-o` as given.
    private let outputDirectory: String

    /// A report written to `path` (replaced when there is one) about pictures made under `outputDirectory` (as given).
    /// - Throws: `ExitCode.ioError`, with a line on standard error, when it cannot be made.
    init(path: String, outputDirectory: String) throws {
        self.path = path
        self.outputDirectory = outputDirectory
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
            "input": displayedInput(result.item.input.name), "output": outputPath(of: result), "outcome": result.outcome.name,
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

    /// Where `result`'s picture is, as the command line named it (see the type's summary).
    private func outputPath(of result: BatchResult) -> String {
        var directory = outputDirectory
        if result.item.input.name.hasPrefix("/"), !directory.hasPrefix("/") {
            directory = (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(directory)
        }
        return ((directory as NSString).appendingPathComponent(result.item.output) as NSString).standardizingPath
    }

    /// Closes the file.
    func close() throws {
        try? handle.close()
    }
}
