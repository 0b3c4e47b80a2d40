import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import RangeFetch
import Synchronization

/// A server made of bytes (HTTPFuzzer's input, a finding replayed): each request takes its answer from the script (status, Content-Range,
/// validators, Location, body length and chunking, transport errors before the head or mid-body); once the script
/// runs out, every answer is an honest 206 of the file. A request for several ranges is answered as nginx does,
/// with a `multipart/byteranges` body of its ranges (the whole file with 200 when together they are longer), and the
/// script bends that body too: a part's Content-Range, a cut, bytes added or taken out, the script's own bytes as a
/// part's headers.
public final class ScriptedTransport: HTTPTransport {
    private struct State {
        var script: ArraySlice<UInt8>
        /// Whether every answer so far was the file's own bytes, with one validator.
        var honest = true
        var requests = 0
        var log: [String] = []
    }

    /// The file served.
    public let file: [UInt8]
    private let state: Mutex<State>

    /// A server of `file` whose answers the script's bytes choose, four bytes an answer.
    public init(script: ArraySlice<UInt8>, file: [UInt8]) {
        self.file = file
        state = Mutex(State(script: script))
    }

    /// Whether every answer so far was an honest one.
    public var wasHonest: Bool { state.withLock { $0.honest } }

    /// Requests answered so far.
    public var requests: Int { state.withLock { $0.requests } }

    /// Each request's Range and what it was answered with (status and headers, or the error thrown).
    public var log: [String] { state.withLock { $0.log } }

    /// The next script byte, or nil once it has run out.
    private func next() -> UInt8? {
        state.withLock { state in
            guard let byte = state.script.first else { return nil }
            state.script = state.script.dropFirst()
            return byte
        }
    }

    private func nextOr(_ fallback: UInt8) -> UInt8 { next() ?? fallback }

    private func markDishonest() { state.withLock { $0.honest = false } }

    static let etags = ["\"v1\"", "\"v2\"", "W/\"v1\"", ""]
    static let dates = ["Mon, 23 Nov 2026 10:00:00 GMT", "Tue, 24 Nov 2026 10:00:00 GMT", "", "yesterday"]
    static let locations = ["/elsewhere.mp4", "http://fuzz.example/movie.mp4", "http://other.example/movie.mp4",
                            "ftp://fuzz.example/movie.mp4", "", "https://fuzz.example:8443/m.mp4", "//other.example/x", " \t"]
    static let redirects = [301, 302, 303, 307, 308]
    static let failures = [404, 410, 401, 403, 412, 416, 500, 502, 503, 504, 418, 100, 204, 299, 304, 599, 0]

    public func execute(_ request: HTTPClientRequest, timeout: TimeAmount) async throws -> HTTPClientResponse {
        state.withLock { $0.requests += 1 }
        let range = request.headers.first(name: "Range") ?? "-"
        do {
            let response = try await answer(request)
            let headers = response.headers.map { "\($0.name): \($0.value)" }.joined(separator: ", ")
            state.withLock { $0.log.append("\(range) -> \(response.status.code) [\(headers)]") }
            return response
        } catch {
            state.withLock { $0.log.append("\(range) -> \(error)") }
            throw error
        }
    }

    private func answer(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
        let header = request.headers.first(name: "Range") ?? ""
        let ranges = Self.requestedRanges(header, length: file.count)
        let asked = ranges[0].lowerBound..<ranges[ranges.count - 1].upperBound  // several: from the first to the last
        guard let kind = next() else {
            return ranges.count > 1 ? multipart(ranges, validator: 0) : honest(asked, status: 206, validator: 0)
        }
        let validator = Int(nextOr(0))
        let chunking = Int(nextOr(0))
        let delta = Int(Int8(bitPattern: nextOr(0)))
        if validator % 16 != 0 { markDishonest() }
        if ranges.count > 1, [0, 2, 6, 7, 9].contains(kind % 10) {
            if kind % 10 != 0 { markDishonest() }
            return multipart(ranges, validator: validator, bend: Int(kind % 10), chunking: chunking, delta: delta)
        }
        switch kind % 10 {
        case 0:
            return honest(asked, status: 206, validator: validator, chunking: chunking)
        case 1:
            return honest(0..<file.count, status: 200, validator: validator, chunking: chunking)
        case 2:
            markDishonest()
            var headers = self.headers(validator: validator)
            headers.add(name: "Content-Range", value: contentRange(asked, mutation: chunking, delta: delta))
            return response(206, headers, body: Array(file[asked]), chunking: chunking)
        case 3:
            markDishonest()
            var headers = self.headers(validator: validator)
            headers.add(name: "Location", value: Self.locations[chunking % Self.locations.count])
            return response(Self.redirects[abs(delta) % Self.redirects.count], headers, body: [], chunking: 0)
        case 4:
            markDishonest()
            var headers = self.headers(validator: validator)
            if chunking & 1 != 0 { headers.add(name: "Content-Range", value: "bytes */\(file.count + delta)") }
            return response(Self.failures[abs(delta) % Self.failures.count], headers, body: [], chunking: 0)
        case 5:
            markDishonest()
            let errors: [any Error] = [HTTPClientError.readTimeout, HTTPClientError.connectTimeout,
                                       HTTPClientError.deadlineExceeded, HTTPClientError.remoteConnectionClosed,
                                       HTTPClientError.cancelled, HTTPClientError.invalidURL]
            throw errors[abs(delta) % errors.count]
        case 6:
            markDishonest()
            var headers = self.headers(validator: validator)
            headers.add(name: "Content-Range", value: contentRange(asked, mutation: 0, delta: 0))
            let cut = min(abs(delta), asked.count)
            return response(206, headers, body: Array(file[asked].prefix(cut)), chunking: chunking,
                            ending: HTTPClientError.remoteConnectionClosed)
        case 7:
            markDishonest()
            var headers = self.headers(validator: validator)
            headers.add(name: "Content-Range", value: contentRange(asked, mutation: 0, delta: 0))
            var body = Array(file[asked])
            if delta < 0 { body.removeLast(min(-delta, body.count)) } else { body += [UInt8](repeating: 0x6d, count: delta) }
            return response(206, headers, body: body, chunking: chunking)
        case 8:
            // 200 with a Content-Length that is not the file's, or none.
            markDishonest()
            var headers = self.headers(validator: validator)
            if chunking & 1 != 0 { headers.add(name: "Content-Length", value: String(file.count + delta)) }
            return response(200, headers, body: file, chunking: chunking >> 1)
        default:
            // The script's own bytes as the Content-Range header.
            markDishonest()
            var headers = self.headers(validator: validator)
            var text: [UInt8] = []
            for _ in 0..<(chunking % 24) { text.append(nextOr(0x20)) }
            headers.add(name: "Content-Range", value: String(decoding: text, as: UTF8.self))
            return response(206, headers, body: Array(file[asked]), chunking: chunking)
        }
    }

    static let boundary = "SCRIPTED0000000001"

    /// The answer to a request for several `ranges`, as nginx gives it: a 206 `multipart/byteranges` body with one
    /// part per satisfiable range in the order asked, the whole file with 200 when together they are longer than
    /// it, a 416 when none is satisfiable. `bend` (the script's answer kind) bends it: 2 one part's Content-Range
    /// (as `contentRange(_:mutation:delta:)` bends a single one), 6 the body cut after `|delta|` x 64 bytes and the
    /// connection closed, 7 `|delta|` bytes taken out of the body (or `m`s put in) at a place `chunking` chooses, 9
    /// the script's next bytes as the part headers of one part (or, with an odd `chunking`, as the boundary the
    /// body uses).
    private func multipart(_ ranges: [Range<Int>], validator: Int, bend: Int = 0, chunking: Int = 0,
                           delta: Int = 0) -> HTTPClientResponse {
        let satisfiable = ranges.filter { !$0.isEmpty }
        var headers = self.headers(validator: validator)
        guard !satisfiable.isEmpty else {
            headers.add(name: "Content-Range", value: "bytes */\(file.count)")
            return response(416, headers, body: [], chunking: 0)
        }
        guard satisfiable.reduce(0, { $0 + $1.count }) <= file.count else {
            return honest(0..<file.count, status: 200, validator: validator, chunking: chunking)
        }
        let bent = abs(delta) % satisfiable.count
        var delimiter = Self.boundary
        var scriptedHeaders: String?
        if bend == 9 {
            var text: [UInt8] = []
            for _ in 0..<(chunking % 48) { text.append(nextOr(0x20)) }
            if chunking & 1 != 0 { delimiter = String(decoding: text, as: UTF8.self) } else { scriptedHeaders = String(decoding: text, as: UTF8.self) }
        }
        var body: [UInt8] = []
        for (index, range) in satisfiable.enumerated() {
            let contentRange = bend == 2 && index == bent ? contentRange(range, mutation: chunking, delta: delta)
                : contentRange(range, mutation: 0, delta: 0)
            var partHeaders = "Content-Type: video/mp4\r\nContent-Range: \(contentRange)"
            if let scriptedHeaders, index == bent { partHeaders = scriptedHeaders }
            body += Array("\r\n--\(delimiter)\r\n\(partHeaders)\r\n\r\n".utf8)
            body += file[range]
        }
        body += Array("\r\n--\(delimiter)--\r\n".utf8)
        headers.add(name: "Content-Type", value: "multipart/byteranges; boundary=\(Self.boundary)")
        switch bend {
        case 6:
            let cut = min(abs(delta) * 64, body.count)
            return response(206, headers, body: Array(body.prefix(cut)), chunking: chunking,
                            ending: HTTPClientError.remoteConnectionClosed)
        case 7:
            let place = body.isEmpty ? 0 : chunking * 257 % body.count
            if delta < 0 {
                body.removeSubrange(place..<min(body.count, place - delta))
            } else {
                body.insert(contentsOf: [UInt8](repeating: 0x6d, count: delta), at: place)
            }
            return response(206, headers, body: body, chunking: chunking)
        default:
            headers.add(name: "Content-Length", value: String(body.count))
            return response(206, headers, body: body, chunking: chunking)
        }
    }

    /// Every range a `Range` header asks for, each clamped to the file (`bytes=a-b,c-d,-n`); one range, the whole
    /// file, when the header is not one of those.
    static func requestedRanges(_ header: String, length: Int) -> [Range<Int>] {
        guard header.hasPrefix("bytes="), header.contains(",") else { return [requestedRange(header, length: length)] }
        return header.dropFirst(6).split(separator: ",").map {
            requestedRange("bytes=" + $0.drop(while: { $0 == " " }), length: length)
        }
    }

    /// The file's bytes for `range` with a true Content-Range (on a 206).
    private func honest(_ range: Range<Int>, status: Int, validator: Int, chunking: Int = 0) -> HTTPClientResponse {
        var headers = self.headers(validator: validator)
        if status == 206 && range.isEmpty {
            headers.add(name: "Content-Range", value: "bytes */\(file.count)")
            return response(416, headers, body: [], chunking: 0)
        }
        if status == 206 { headers.add(name: "Content-Range", value: contentRange(range, mutation: 0, delta: 0)) }
        headers.add(name: "Content-Length", value: String(range.count))
        return response(status, headers, body: Array(file[range]), chunking: chunking)
    }

    private func headers(validator: Int) -> HTTPHeaders {
        var headers = HTTPHeaders()
        let etag = Self.etags[validator % 4]
        let date = Self.dates[validator / 4 % 4]
        if !etag.isEmpty { headers.add(name: "ETag", value: etag) }
        if !date.isEmpty { headers.add(name: "Last-Modified", value: date) }
        return headers
    }

    /// A Content-Range for `range`, true or bent by `mutation`: a shifted start or end, a hidden or wrong length.
    private func contentRange(_ range: Range<Int>, mutation: Int, delta: Int) -> String {
        var first = range.lowerBound
        var last = range.upperBound - 1
        var total = String(file.count)
        switch mutation % 6 {
        case 1: first += delta
        case 2: last += delta
        case 3: total = "*"
        case 4: total = String(file.count + delta)
        case 5: last = Int.max - abs(delta); total = "*"
        default: break
        }
        return "bytes \(first)-\(last)/\(total)"
    }

    private func response(_ status: Int, _ headers: HTTPHeaders, body: [UInt8], chunking: Int,
                          ending: (any Error)? = nil) -> HTTPClientResponse {
        // One chunk when the script says 0; else chunks of 2^n bytes, but at most 64 of them (a realistic stream).
        let chunkSize = chunking == 0 ? max(1, body.count) : max(1 << (chunking % 17), body.count / 64)
        let (stream, continuation) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
        var offset = 0
        while offset < body.count {
            let end = min(body.count, offset + chunkSize)
            continuation.yield(ByteBuffer(bytes: body[offset..<end]))
            offset = end
        }
        continuation.finish(throwing: ending)
        return HTTPClientResponse(status: HTTPResponseStatus(statusCode: status), headers: headers, body: .stream(stream))
    }

    /// The range a `Range` header asks for, clamped to the file (`bytes=a-b` or `bytes=-n`).
    static func requestedRange(_ header: String, length: Int) -> Range<Int> {
        guard header.hasPrefix("bytes=") else { return 0..<length }
        let parts = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return 0..<length }
        if parts[0].isEmpty, let count = Int(parts[1]) {
            return max(0, length - count)..<length
        }
        guard let first = Int(parts[0]), let last = Int(parts[1]), first <= last else { return 0..<length }
        let lower = min(first, length)
        return lower..<min(length, max(lower, last == Int.max ? last : last + 1))
    }
}
