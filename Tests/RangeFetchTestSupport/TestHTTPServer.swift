import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// An in-process HTTP/1.1 server on 127.0.0.1 that serves byte arrays with Range support and injects faults.
///
/// It counts what every client sees the same way: requests, connections and body bytes, on the server side.
public final class TestHTTPServer: Sendable {
    /// Faults and behaviours; change them between requests with `update`.
    public struct Faults: Sendable {
        /// Answer 200 with the whole body whatever the Range header says.
        public var ignoresRange = false
        /// Seconds to wait before answering each request (a round-trip delay).
        public var responseDelay: Double = 0
        /// Body bytes per second (nil: as fast as the socket goes).
        public var bandwidth: Int?
        /// After this many requests, the resource has a new ETag (and Last-Modified).
        public var changeETagAfterRequests: Int?
        /// Close the connection after this many body bytes, for the first `resetRequests` requests.
        public var resetAfterBodyBytes: Int?
        /// How many requests the reset applies to (then the server behaves).
        public var resetRequests = Int.max
        /// Announce the full length but send only half the body, then close (every request).
        public var truncatesBody = false
        /// Send a Content-Range that starts one byte late.
        public var wrongContentRange = false
        /// Send 100 bytes more body than Content-Range announces.
        public var bodyLongerThanAnnounced = false
        /// Seconds before the response head of every request.
        public var firstByteDelay: Double = 0
        /// Answer the first N requests with 503.
        public var serviceUnavailableRequests = 0
        /// Answer every request with this status (404, 403, 500, ...).
        public var forcedStatus: Int?
        /// Paths that redirect (302) to another path.
        public var redirects: [String: String] = [:]
        /// Send no ETag and no Last-Modified.
        public var omitsValidators = false
        /// Answer 403 to requests whose Authorization header is not this one.
        public var requiredAuthorization: String?
        /// Send `bytes first-last/*` instead of the complete length.
        public var hidesLength = false
        /// A Content-Range value sent on every 206 instead of the true one.
        public var contentRangeOverride: String?
        /// The share of requests (0...1) that get one fault picked at random: a reset after half the body, a 503, a
        /// stall of `randomStall` seconds before the head, or a reset at a random point of the body. Drawn from a generator seeded with
        /// `randomFaultSeed`, so the faults of a run repeat for the same order of requests.
        public var randomFaultRate: Double = 0
        /// The seed of the random faults.
        public var randomFaultSeed: UInt64 = 1
        /// Seconds a stalled request waits before its head.
        public var randomStall: Double = 0.2

        /// How a request for several ranges is answered.
        public var multipleRanges = MultipleRangeAnswer.multipart
        /// Answer a suffix range (`bytes=-n`) with 416 and no length, as a server that cannot tell its length does.
        public var refusesSuffixRanges = false

        /// No faults.
        public init() {}
    }

    /// Answers to a Range header with several ranges.
    public enum MultipleRangeAnswer: Sendable {
        /// A 206 `multipart/byteranges` with one part per range, or a 200 with the whole resource when the ranges
        /// together are longer than it (as nginx answers).
        case multipart
        /// A 206 with the first range alone.
        case firstRange
        /// A 200 with the whole resource (Amazon S3, Google Cloud Storage, Cloudflare R2, Azure Blob).
        case whole
        /// A 416 with the resource's length (Alibaba OSS).
        case refused
    }

    /// One request as the server saw it.
    public struct Request: Sendable, Equatable {
        public var method: String
        public var path: String
        /// The request target exactly as it came on the wire (path and query).
        public var uri: String
        public var range: String?
        public var ifRange: String?
        public var headers: [String: String]
        public var status: Int
        public var bodyBytes: Int
        public var connection: Int
    }

    struct State {
        var files: [String: [UInt8]]
        var faults: Faults
        var requests: [Request] = []
        var connections = 0
        var openConnections = 0
        var requestCount = 0
        var randomFaults = 0
        var random: UInt64?

        /// The next number of the random-fault generator (SplitMix64), in 0..<1.
        mutating func nextRandom() -> Double {
            var z = (random ?? faults.randomFaultSeed) &+ 0x9E37_79B9_7F4A_7C15
            random = z
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
    }

    let state: NIOLockedValueBox<State>
    private let channel: any Channel
    /// The port it listens on.
    public let port: Int

    /// Starts a server for `files` (path to bytes, e.g. "/movie.mp4").
    public init(files: [String: [UInt8]], faults: Faults = Faults()) async throws {
        let state = NIOLockedValueBox(State(files: files, faults: faults))
        self.state = state
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [state] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(TestHTTPHandler(server: state))
                }
            }
        channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    /// The URL of `path` on this server.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Every request so far.
    public var requests: [Request] { state.withLockedValue { $0.requests } }
    /// Connections accepted so far.
    public var connections: Int { state.withLockedValue { $0.connections } }
    /// Connections open now.
    public var openConnections: Int { state.withLockedValue { $0.openConnections } }
    /// Requests that got a random fault (`Faults.randomFaultRate`).
    public var randomFaults: Int { state.withLockedValue { $0.randomFaults } }
    /// Requests answered so far (the log can be reset; this count cannot).
    public var requestCount: Int { state.withLockedValue { $0.requestCount } }
    /// Body bytes sent so far.
    public var bodyBytes: Int { state.withLockedValue { $0.requests.reduce(0) { $0 + $1.bodyBytes } } }

    /// Changes the faults.
    public func update(_ change: (inout Faults) -> Void) {
        state.withLockedValue { change(&$0.faults) }
    }

    /// Replaces a file's bytes.
    public func replace(_ path: String, with bytes: [UInt8]) {
        state.withLockedValue { $0.files[path] = bytes }
    }

    /// Forgets the request log.
    public func resetLog() {
        state.withLockedValue {
            $0.requests = []
        }
    }

    /// Stops listening.
    public func shutdown() async throws {
        try await channel.close()
    }
}

/// Answers one connection's requests.
final class TestHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let server: NIOLockedValueBox<TestHTTPServer.State>
    private var head: HTTPRequestHead?
    private var connectionNumber = 0

    init(server: NIOLockedValueBox<TestHTTPServer.State>) {
        self.server = server
    }

    func channelActive(context: ChannelHandlerContext) {
        connectionNumber = server.withLockedValue { state in
            state.connections += 1
            state.openConnections += 1
            return state.connections
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        server.withLockedValue { $0.openConnections -= 1 }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
        case .body:
            break
        case .end:
            if let head { respond(to: head, context: context) }
            head = nil
        }
    }

    /// What to send for one request.
    struct Plan {
        var status: HTTPResponseStatus
        var headers: HTTPHeaders
        var body: [UInt8]
        var sendBytes: Int
        var closeAfter: Bool
        var delay: Double
        var bandwidth: Int?
    }

    private func respond(to request: HTTPRequestHead, context: ChannelHandlerContext) {
        let plan = server.withLockedValue { state in Self.plan(for: request, state: &state, connection: connectionNumber) }
        let loop = context.eventLoop
        let contextBox = NIOLoopBound(context, eventLoop: loop)
        loop.scheduleTask(in: .nanoseconds(Int64(plan.delay * 1_000_000_000))) {
            Self.send(plan, context: contextBox.value, keepAlive: request.isKeepAlive)
        }
    }

    private static func send(_ plan: Plan, context: ChannelHandlerContext, keepAlive: Bool) {
        var headers = plan.headers
        if !keepAlive || plan.closeAfter { headers.replaceOrAdd(name: "Connection", value: "close") }
        context.write(NIOAny(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: plan.status, headers: headers))),
                      promise: nil)
        let bytes = Array(plan.body.prefix(plan.sendBytes))
        let chunk = plan.bandwidth.map { max(1, $0 / 100) } ?? max(1, bytes.count)
        let contextBox = NIOLoopBound(context, eventLoop: context.eventLoop)
        @Sendable func writeChunk(from offset: Int) {
            let context = contextBox.value
            guard offset < bytes.count else {
                if plan.closeAfter {
                    context.flush()
                    context.close(promise: nil)
                } else {
                    context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)), promise: nil)
                    if !keepAlive { context.close(promise: nil) }
                }
                return
            }
            let end = min(bytes.count, offset + chunk)
            let buffer = context.channel.allocator.buffer(bytes: bytes[offset..<end])
            context.writeAndFlush(NIOAny(HTTPServerResponsePart.body(.byteBuffer(buffer))), promise: nil)
            if plan.bandwidth != nil {
                context.eventLoop.scheduleTask(in: .milliseconds(10)) { writeChunk(from: end) }
            } else {
                writeChunk(from: end)
            }
        }
        writeChunk(from: 0)
    }

    /// Decides the response, records the request.
    static func plan(for request: HTTPRequestHead, state: inout TestHTTPServer.State, connection: Int) -> Plan {
        state.requestCount += 1
        let number = state.requestCount
        let faults = state.faults
        let path = String(request.uri.split(separator: "?").first ?? "")
        var headers = HTTPHeaders()
        var plan = Plan(status: .ok, headers: headers, body: [], sendBytes: 0, closeAfter: false,
                        delay: faults.responseDelay + faults.firstByteDelay, bandwidth: faults.bandwidth)
        var recordedHeaders: [String: String] = [:]
        for (name, value) in request.headers { recordedHeaders[name.lowercased()] = value }
        defer {
            state.requests.append(TestHTTPServer.Request(
                method: request.method.rawValue, path: path, uri: request.uri, range: request.headers.first(name: "Range"),
                ifRange: request.headers.first(name: "If-Range"), headers: recordedHeaders,
                status: Int(plan.status.code), bodyBytes: plan.sendBytes, connection: connection))
        }
        func finish(_ status: HTTPResponseStatus) {
            plan.status = status
            headers.replaceOrAdd(name: "Content-Length", value: "0")
            plan.headers = headers
        }
        if let target = faults.redirects[path] {
            headers.add(name: "Location", value: target)
            finish(.found)
            return plan
        }
        if number <= faults.serviceUnavailableRequests {
            finish(.serviceUnavailable)
            return plan
        }
        if let forced = faults.forcedStatus {
            finish(HTTPResponseStatus(statusCode: forced))
            return plan
        }
        if let required = faults.requiredAuthorization, request.headers.first(name: "Authorization") != required {
            finish(.forbidden)
            return plan
        }
        guard let file = state.files[path] else {
            finish(.notFound)
            return plan
        }
        let version = faults.changeETagAfterRequests.map { number > $0 ? 2 : 1 } ?? 1
        let etag = "\"v\(version)-\(file.count)\""
        if !faults.omitsValidators {
            headers.add(name: "ETag", value: etag)
            headers.add(name: "Last-Modified", value: version == 1 ? "Mon, 02 Nov 2026 10:00:00 GMT" : "Tue, 03 Nov 2026 10:00:00 GMT")
        }
        headers.add(name: "Accept-Ranges", value: faults.ignoresRange ? "none" : "bytes")
        let length = file.count
        var range: Range<Int>?
        var parts: [Range<Int>] = []
        if !faults.ignoresRange, let header = request.headers.first(name: "Range") {
            let ifRange = request.headers.first(name: "If-Range")
            let validatorMatches = ifRange == nil || ifRange == etag
                || (!ifRange!.hasPrefix("\"") && ifRange == headers.first(name: "Last-Modified"))
            if validatorMatches {
                let specs = header.hasPrefix("bytes=") ? header.dropFirst(6).split(separator: ",").map { "bytes=" + $0.filter { $0 != " " } } : [header]
                let parsed = specs.map { parseRange(String($0), length: length) }
                if faults.refusesSuffixRanges, specs.contains(where: { $0.hasPrefix("bytes=-") }) {
                    finish(.rangeNotSatisfiable)
                    return plan
                }
                if parsed.count > 1, faults.multipleRanges == .refused {
                    headers.add(name: "Content-Range", value: "bytes */\(length)")
                    finish(.rangeNotSatisfiable)
                    return plan
                }
                guard let first = parsed.first ?? nil, parsed.allSatisfy({ $0 != nil }) else {
                    headers.add(name: "Content-Range", value: "bytes */\(length)")
                    finish(.rangeNotSatisfiable)
                    return plan
                }
                if parsed.count == 1 || faults.multipleRanges == .firstRange {
                    range = first
                } else if faults.multipleRanges == .multipart, parsed.reduce(0, { $0 + ($1?.count ?? 0) }) <= length {
                    parts = parsed.compactMap { $0 }
                }
            }
        }
        var body = file
        if !parts.isEmpty {
            let boundary = "3d6b6a416f9b5"
            body = []
            for part in parts {
                body += Array("\r\n--\(boundary)\r\nContent-Type: video/mp4\r\nContent-Range: bytes \(part.lowerBound)-\(part.upperBound - 1)/\(length)\r\n\r\n".utf8)
                body += file[part]
            }
            body += Array("\r\n--\(boundary)--\r\n".utf8)
            headers.add(name: "Content-Type", value: "multipart/byteranges; boundary=\(boundary)")
            plan.status = .partialContent
        } else if let range {
            body = Array(file[range])
            let first = range.lowerBound + (faults.wrongContentRange ? 1 : 0)
            let complete = faults.hidesLength ? "*" : "\(length)"
            headers.add(name: "Content-Range", value: faults.contentRangeOverride ?? "bytes \(first)-\(range.upperBound - 1)/\(complete)")
            plan.status = .partialContent
        } else {
            plan.status = .ok
        }
        if faults.bodyLongerThanAnnounced { body += [UInt8](repeating: 0xEE, count: 100) }
        headers.add(name: "Content-Length", value: "\(body.count)")
        plan.headers = headers
        plan.body = body
        plan.sendBytes = body.count
        if faults.truncatesBody {
            plan.sendBytes = body.count / 2
            plan.closeAfter = true
        }
        if let reset = faults.resetAfterBodyBytes, number <= faults.resetRequests, reset < plan.sendBytes {
            plan.sendBytes = reset
            plan.closeAfter = true
        }
        if faults.randomFaultRate > 0, state.nextRandom() < faults.randomFaultRate {
            state.randomFaults += 1
            switch Int(state.nextRandom() * 4) {
            case 0:
                plan.sendBytes /= 2
                plan.closeAfter = true
            case 1:
                finish(.serviceUnavailable)
                plan.body = []
                plan.sendBytes = 0
            case 2:
                plan.delay += faults.randomStall
            default:
                plan.sendBytes = Int(state.nextRandom() * Double(plan.sendBytes))
                plan.closeAfter = true
            }
        }
        return plan
    }

    /// Parses `bytes=a-b`, `bytes=a-` and `bytes=-n` against `length`; nil when unsatisfiable.
    static func parseRange(_ header: String, length: Int) -> Range<Int>? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst(6)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty {
            guard let suffix = Int(parts[1]), suffix > 0, length > 0 else { return nil }
            return max(0, length - suffix)..<length
        }
        guard let first = Int(parts[0]), first < length else { return nil }
        let last = parts[1].isEmpty ? length - 1 : min(length - 1, Int(parts[1]) ?? length - 1)
        guard last >= first else { return nil }
        return first..<(last + 1)
    }
}
