import AsyncHTTPClient
import ByteSources
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A byte source over an http(s) URL, read with range GETs.
///
/// Never sends HEAD (presigned URLs refuse it): the length comes from the
/// first response's Content-Range. The first response's ETag (or
/// Last-Modified) is sent as If-Range on every later request, so a file
/// replaced mid-way is noticed. From a server that ignores Range, a body of at most
/// `maximumKeptBodyBytes` is read whole once and kept (later reads cost nothing, and
/// every byte sent is counted); a longer one is read only as far as needed. Resets, timeouts and 502/503/504 are retried with backoff.
/// Redirects are followed here (not by the client), within `maximumRedirects` and
/// `allowsRedirect`, and later reads go straight to where they led.
public final class HTTPByteSource: ByteSource {
    /// The URL.
    public let url: String
    /// The options.
    public let options: HTTPFetchOptions
    /// The client the requests go through.
    public let client: RangeFetchClient
    let ledger: FetchLedger
    private let connectionsAtStart: Int?

    /// A source for `url`. `knownLength` and `validator` (from a cache) let it skip learning them again.
    /// Without `client`, the shared client with the options' timeouts is used.
    /// - Throws: `FetchError` `unsupportedURL` for anything but http and https.
    public init(url: String, options: HTTPFetchOptions = HTTPFetchOptions(), client: RangeFetchClient? = nil,
                knownLength: UInt64? = nil, validator: Validator? = nil) throws {
        guard Self.isHTTP(url) else {
            throw FetchError(.unsupportedURL, url: url, "only http and https urls can be read")
        }
        self.url = url
        self.options = options
        let client = client ?? .shared(for: options)
        self.client = client
        ledger = FetchLedger(options: options, length: knownLength, validator: validator)
        connectionsAtStart = client.connectionsOpened
    }

    /// A source for `url` that starts from what an earlier source of it learnt (its `KnownVersion`): the length,
    /// and the validator read back from its `version`, sent as If-Range so another version is refused.
    /// - Throws: `FetchError` `unsupportedURL` for anything but http and https.
    public convenience init(url: String, options: HTTPFetchOptions = HTTPFetchOptions(), client: RangeFetchClient? = nil,
                            known: KnownVersion?) throws {
        try self.init(url: url, options: options, client: client, knownLength: known?.length,
                      validator: known?.version.flatMap { Validator(headerLines: $0) })
    }

    public var knownLength: UInt64? { get async { ledger.length } }

    /// The URL as messages show it (`URLRedaction`: no user info or query).
    public var inputName: String? { URLRedaction.shown(url) }

    /// Ranges this many bytes apart or less are worth one request rather than two round trips.
    public var coalescingGap: UInt64 { 64 * 1024 }

    /// What fetching has cost so far: every request, retry and body byte received.
    public var statistics: FetchStats? {
        get async {
            var stats = ledger.stats
            if let now = client.connectionsOpened, let start = connectionsAtStart {
                stats.connectionsOpened = now - start
            } else {
                stats.connectionsOpened = nil
            }
            return stats
        }
    }

    /// The validator (ETag, Last-Modified) of the resource, once a response has given one.
    public var validator: Validator? { get async { ledger.validator } }

    /// The validator and length, once a response has given a validator: its header lines
    /// (`Validator.headerLines`) and `Length: <bytes or ?>`. `init(url:options:client:known:)` reads it back.
    public var version: String? {
        get async {
            guard let validator = ledger.validator else { return nil }
            return validator.headerLines + "\nLength: \(ledger.length.map(String.init) ?? "?")"
        }
    }

    public func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        // No file has bytes past the largest file offset; clamping there keeps every count an Int.
        guard range.lowerBound < .maximumFileOffset else { return [] }
        var range = range.lowerBound..<min(range.upperBound, .maximumFileOffset)
        if let length = ledger.length {
            if range.lowerBound >= length { return [] }
            range = range.lowerBound..<min(range.upperBound, length)
        }
        if range.isEmpty { return [] }
        if let body = ledger.wholeBody {
            return Self.bytes(range, of: body)
        }
        return try await withRetries(range: range) { try await self.fetch(.bounded(range), attempt: $0) }.bytes
    }

    public func readSuffix(_ count: UInt64) async throws -> (bytes: [UInt8], offset: UInt64) {
        // With the restart policy the resource may change under the read: then the suffix is the new version's,
        // asked for once more; a resource that changes again is refused.
        var changes = 0
        if let body = ledger.wholeBody {
            let tail = Self.suffix(count, of: body)
            return (tail.bytes, tail.offset)
        }
        while let length = ledger.length {
            let start = length - min(length, count)
            let bytes = try await read(start..<length)
            if ledger.length == length { return (bytes, start) }
            changes += 1
            if changes > 1 {
                throw FetchError(.resourceChanged, url: url, range: start..<length, "the resource changed twice while its end was read")
            }
        }
        let result = try await withRetries(range: nil) { try await self.fetch(.suffix(count), attempt: $0) }
        return (result.bytes, result.offset)
    }
}
