#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A byte source over a local file, read with `pread`.
///
/// The file descriptor is owned by this object and closed in `deinit`.
public final class FileByteSource: ByteSource {
    /// The path the file was opened from.
    public let path: String
    private let descriptor: Int32
    private let length: UInt64

    /// Opens `path` for reading.
    /// - Throws: `MP4Error` `readFailed` when the file cannot be opened or measured.
    public init(path: String) throws {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw MP4Error(.readFailed, path: "", offset: 0, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw MP4Error(.readFailed, path: "", offset: 0, "cannot stat \(path): \(reason)")
        }
        descriptor = fd
        length = UInt64(max(0, info.st_size))
    }

    deinit {
        close(descriptor)
    }

    public var knownLength: UInt64? { length }

    public func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        let lower = min(range.lowerBound, length)
        let upper = min(max(range.upperBound, lower), length)
        let count = Int(upper - lower)
        if count == 0 { return [] }
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
            throw MP4Error(.readFailed, path: "", offset: lower, "cannot read \(path): \(String(cString: strerror(failure)))")
        }
        return bytes
    }
}
