import ArgumentParser
import Foundation

/// Writes `bytes` to the file at `path`, or to standard output for `-`; a failure is one line on standard error and
/// the I/O exit code.
func writeOutput(_ bytes: [UInt8], to path: String) throws {
    do {
        if path == "-" {
            try FileHandle.standardOutput.write(contentsOf: Data(bytes))
        } else {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
    } catch {
        printError("thumbs: \(path): \(fileFailureReason(error))")
        throw ExitCode.ioError
    }
}
