import Foundation
import Testing
@testable import ThumbsServer

/// Clients that hold connections without finishing a request: a header sent slowly or never finished, an idle
/// keep-alive connection, more connections than the server keeps open.
@Suite struct ConnectionLimitTests {
    static func configuration(_ change: (inout ServerConfiguration) -> Void) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.mediaRoot = FileManager.default.temporaryDirectory.path
        change(&configuration)
        return configuration
    }

    /// A header trickled a byte every 200 ms never completes: the connection is closed once the idle timeout
    /// (1 s) passes, not kept while bytes keep coming. Without a timeout nothing ended such connections.
    @Test func aHeaderThatNeverCompletesIsClosedAtTheIdleTimeout() async throws {
        try await RunningServer.with(Self.configuration { $0.idleTimeout = 1 }) { server in
            let connection = try RawConnection(port: server.port)
            connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n")
            let trickle = Task {
                for index in 0..<100 {
                    try await Task.sleep(for: .milliseconds(200))
                    guard connection.send("X-Slow-\(index): y\r\n") else { return }
                }
            }
            let started = ContinuousClock.now
            let answer = await connection.readUntilClosed(within: 15)
            trickle.cancel()
            #expect(answer.closed, "still open after 15 s")
            #expect(answer.text.isEmpty, "\(answer.text)")
            #expect(ContinuousClock.now - started >= .milliseconds(900))
        }
    }

    /// A keep-alive connection left idle after its answer is closed at the idle timeout.
    @Test func anIdleConnectionIsClosedAfterItsAnswer() async throws {
        try await RunningServer.with(Self.configuration { $0.idleTimeout = 1 }) { server in
            let connection = try RawConnection(port: server.port)
            connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            let answer = await connection.readUntilClosed(within: 15)
            #expect(answer.text.hasPrefix("HTTP/1.1 200"), "\(answer.text)")
            #expect(answer.closed, "still open after 15 s")
        }
    }

    /// Past `maximumConnections` a new connection is closed at once, before it is read; once one closes, there is
    /// room again.
    @Test func connectionsPastTheLimitAreClosedAtOnce() async throws {
        try await RunningServer.with(Self.configuration { $0.maximumConnections = 2 }) { server in
            var first: RawConnection? = try RawConnection(port: server.port)
            let second = try RawConnection(port: server.port)
            try await Task.sleep(for: .milliseconds(300))  // both accepted
            let third = try RawConnection(port: server.port)
            third.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            let refused = await third.readUntilClosed(within: 10)
            #expect(refused.closed && refused.text.isEmpty, "\(refused)")

            first = nil  // closes it
            // The server sees the close when its event loop next runs: on a loaded machine that may take a while, so
            // a new connection is tried every half second, for up to 20 s, until one is answered.
            var answered = (text: "", closed: true)
            for _ in 0..<40 {
                try await Task.sleep(for: .milliseconds(500))
                let fourth = try RawConnection(port: server.port)
                fourth.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                answered = await fourth.readUntilClosed(within: 10)
                if answered.text.hasPrefix("HTTP/1.1 200") { break }
            }
            #expect(answered.text.hasPrefix("HTTP/1.1 200"), "\(answered)")
            _ = (first, second)
        }
    }
}
