#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A byte source over a local file, read with `pread` off the tasks' threads (`BlockingCalls`).
///
/// The file descriptor is owned by this object and closed in `deinit`.
public final class FileByteSource: ByteSource {
    /// The path the file was opened from.
    public let path: String
    /// What messages call the file (`inputName`): the path unless given.
    public let name: String
    private let descriptor: Int32
    private let length: UInt64
    /// The version of the file opened: device, inode, size and modification time (to the nanosecond).
    public let fileVersion: String

    /// Opens `path` for reading; messages call it `name` (default: the path).
    /// - Throws: `ReadError` `cannotOpen` when the file cannot be opened or measured.
    public init(path: String, name: String? = nil) throws {
        self.path = path
        let name = name ?? path
        self.name = name
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw ReadError(.cannotOpen, input: name, "cannot open the file: \(String(cString: strerror(errno)).lowercased())")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ReadError(.cannotOpen, input: name, "cannot read the file's size: \(reason.lowercased())")
        }
        descriptor = fd
        length = UInt64(max(0, info.st_size))
        fileVersion = Self.version(of: info)
    }

    /// The version of the file at `path` now (as `fileVersion` would read if it were opened), nil if it cannot be read.
    /// A file replaced or rewritten in place has another version (a new inode, size or modification time).
    public static func version(ofFileAt path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return version(of: info)
    }

    private static func version(of info: stat) -> String {
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        return "file \(info.st_dev):\(info.st_ino) \(info.st_size) bytes modified \(modified.tv_sec).\(modified.tv_nsec)"
    }

    deinit {
        close(descriptor)
    }

    public var knownLength: UInt64? { length }

    public var version: String? { fileVersion }

    public var inputName: String? { name }

    public func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        let lower = min(range.lowerBound, length)
        let upper = min(max(range.upperBound, lower), length)
        if lower == upper { return [] }
        return try await BlockingCalls.run { try self.readNow(lower..<upper) }
    }

    /// The bytes of `range` (inside the file), read on the calling thread.
    private func readNow(_ range: Range<UInt64>) throws -> [UInt8] {
        let (lower, upper) = (range.lowerBound, range.upperBound)
        let count = Int(upper - lower)
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else { return }
            var done = 0
            while done < count {
                let result = pread(descriptor, base + done, count - done, off_t(lower) + off_t(done))
                if result < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if result == 0 { break }
                done += result
            }
            initialized = done
        }
        if failure != 0 {
            throw ReadError(.cannotRead, input: name, offset: lower,
                            "cannot read bytes \(ByteRange.text(lower..<upper)): \(String(cString: strerror(failure)).lowercased())")
        }
        return bytes
    }
}
