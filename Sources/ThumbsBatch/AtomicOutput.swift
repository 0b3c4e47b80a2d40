import Foundation
import Thumbs

/// Writes outputs so that their final names only ever hold whole outputs: each is written under a temporary name
/// in the same folder, then renamed into place (a rename within a file system replaces the old file at once). A
/// batch stopped in the middle leaves no half-written output; a temporary one it could not remove (the process
/// killed) starts with `.partial-`.
enum AtomicOutput {
    /// Writes `bytes` to `destination`, making its folders.
    /// - Throws: `ThumbnailError` `writeFailed` with the path and the system's reason; nothing is left at a
    ///   temporary name.
    static func write(_ bytes: [UInt8], to destination: URL) throws(ThumbnailError) {
        let temporary = temporaryURL(beside: destination)
        do {
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: temporary)
            try rename(temporary, to: destination)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw failure(error, writing: destination)
        }
    }

    /// Fills a new folder with `fill` and puts it at `destination` in place of what was there.
    /// - Throws: what `fill` throws, or `ThumbnailError` `writeFailed`; nothing is left at a temporary name.
    static func writeFolder(at destination: URL, _ fill: (URL) async throws -> Void) async throws {
        let temporary = temporaryURL(beside: destination)
        do {
            do {
                try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: false)
            } catch {
                throw failure(error, writing: destination)
            }
            try await fill(temporary)
            do {
                if FileManager.default.fileExists(atPath: destination.path) {
                    let old = temporaryURL(beside: destination)
                    try rename(destination, to: old)
                    try? FileManager.default.removeItem(at: old)
                }
                try rename(temporary, to: destination)
            } catch {
                throw failure(error, writing: destination)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// `ThumbnailError` `writeFailed` for `error`, naming `destination` and the system's reason.
    static func failure(_ error: any Error, writing destination: URL) -> ThumbnailError {
        let reason: String
        if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? POSIXError {
            reason = String(cString: strerror(posix.code.rawValue))
        } else if let posix = error as? POSIXError {
            reason = String(cString: strerror(posix.code.rawValue))
        } else {
            reason = error.localizedDescription
        }
        return ThumbnailError(.writeFailed, "\(destination.path) could not be written: \(reason)")
    }

    /// A name beside `destination` that no other write uses.
    private static func temporaryURL(beside destination: URL) -> URL {
        destination.deletingLastPathComponent()
            .appendingPathComponent(".partial-\(UUID().uuidString)-\(destination.lastPathComponent)")
    }

    /// `rename(2)`: `source` takes `destination`'s name, replacing a file there.
    private static func rename(_ source: URL, to destination: URL) throws {
        guard Foundation.rename(source.path, destination.path) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }
}
