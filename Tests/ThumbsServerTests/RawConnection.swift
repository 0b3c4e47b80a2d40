import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to the server under test, for what an HTTP client will not do: send half a header,
/// trickle bytes, hold a connection idle. Blocking reads run on a thread of their own, never on a thread Swift's
/// tasks (or Dispatch's global queues, which share its workers) need.
final class RawConnection: @unchecked Sendable {
    // @unchecked: `descriptor` is set once in init; the socket calls on it are thread-safe, and `close` runs once
    // (deinit).
    private let descriptor: Int32

    struct Failure: Error { var what: String }

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(what: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw Failure(what: "connect")
        }
    }

    deinit { close(descriptor) }

    /// Sends `text`; false when the connection no longer takes it.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Reads until the server closes the connection or `seconds` pass; what was read and whether it was closed.
    func readUntilClosed(within seconds: Double) async -> (text: String, closed: Bool) {
        let descriptor = self.descriptor
        return await withCheckedContinuation { continuation in
            Thread {
                var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
                setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                var received: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                let end = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
                var closed = false
                while DispatchTime.now().uptimeNanoseconds < end {
                    let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                    if count > 0 {
                        received += buffer[..<count]
                    } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                        closed = true
                        break
                    }
                }
                continuation.resume(returning: (String(decoding: received, as: UTF8.self), closed))
            }.start()
        }
    }
}
