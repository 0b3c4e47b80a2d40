import ArgumentParser
import ByteSources
import Foundation
import MP4Box
import RangeFetch
import Thumbs

/// Distinct exit codes, after sysexits.h: usage 64, bad input 65, I/O 74.
extension ExitCode {
    /// The input is not a movie we can read.
    static let badInput = ExitCode(65)
    /// A read or write failed.
    static let ioError = ExitCode(74)

    /// The exit code for an error thrown while working on an input.
    static func forError(_ error: any Error) -> ExitCode {
        if error is ReadError { return .ioError }
        if let error = error as? MP4Error, error.code == .readFailed { return .ioError }
        // A budget the input passed is the input's (a hostile index), not a failed read.
        if let error = error as? FetchError { return error.code == .budgetExceeded ? .badInput : .ioError }
        if let error = error as? ThumbnailError, error.code == .writeFailed { return .ioError }
        return .badInput
    }
}

/// The line for an error about `input`: the error's own sentence when it starts with the input (our errors name it),
/// else the input, then the error.
func errorMessage(_ error: any Error, about input: String) -> String {
    let text = String(describing: error)
    let shown = displayedInput(input)
    return "thumbs: " + (text.hasPrefix(shown) ? text : "\(shown): \(text)")
}

/// The input as messages name it: a URL without its query (a presigned URL's credential and signature), as
/// `FetchError` names it.
func displayedInput(_ input: String) -> String {
    let lowered = input.lowercased()
    guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"),
          let mark = input.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return input }
    return input[..<mark] + "?…"
}

/// Why a Foundation file operation failed: the system's words for the errno it wraps ("Not a directory", "Permission
/// denied"), else the error's own description.
func fileFailureReason(_ error: any Error) -> String {
    if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? POSIXError {
        return String(cString: strerror(posix.code.rawValue))
    }
    return error.localizedDescription
}

/// Writes one line to standard error.
func printError(_ message: String) {
    var stream = StandardErrorStream()
    print(message, to: &stream)
}

/// Standard error as a `TextOutputStream`.
struct StandardErrorStream: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}

