#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP port whose connections are never accepted, with its accept queue full: the kernel drops every
/// further SYN, so a client's connect neither succeeds nor fails until its own connect timeout ends the wait.
final class UnacceptingListener {
    let port: Int
    private var descriptors: [Int32] = []

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw Failure(what: "socket") }
        descriptors.append(listener)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 0) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else { throw Failure(what: "bind/listen") }
        port = Int(UInt16(bigEndian: address.sin_port))
        // Fill the accept queue (a backlog of 0 holds one connection) with connections no one accepts.
        for _ in 0..<2 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard filler >= 0 else { throw Failure(what: "socket") }
            descriptors.append(filler)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, length) }
            }
        }
        usleep(100_000)  // let the handshakes of the fillers complete
    }

    deinit {
        for descriptor in descriptors { close(descriptor) }
    }

    struct Failure: Error {
        var what: String
    }
}
