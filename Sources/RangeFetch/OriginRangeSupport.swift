import Foundation
import Synchronization

/// What origins (scheme, host and port) have shown about requests for several ranges at once, remembered for the
/// life of a `RangeFetchClient` (and across processes where the caller keeps `known`, as `--cache-dir` does).
///
/// nginx and Apache answer `Range: bytes=0-99,500-599` with `multipart/byteranges`; Amazon S3, Google Cloud
/// Storage, Cloudflare R2 and Azure Blob answer it with `200` and the whole object, Alibaba OSS with `416`, some
/// servers with the first range alone. An `HTTPByteSource` asks an origin for several ranges in one request only
/// once it has answered so; until then it asks for them one at a time, side by side, which costs the same round
/// trips on any origin.
public final class OriginRangeSupport: Sendable {
    /// How an origin answers a request for several ranges.
    public enum Answer: String, Sendable, Codable, Equatable {
        /// With `multipart/byteranges`: several ranges cost one request.
        case multipart
        /// Otherwise (the whole resource, `416`, the first range alone): one range a request.
        case oneRangeAtATime
    }

    private let answers = Mutex<[String: Answer]>([:])

    /// Nothing known yet.
    public init() {}

    /// What the origin of `url` has shown, or nil when it has not been asked for several ranges.
    public func answer(for url: String) -> Answer? {
        guard let origin = Self.origin(of: url) else { return nil }
        return answers.withLock { $0[origin] }
    }

    /// Remembers how the origin of `url` answered a request for several ranges.
    public func remember(_ answer: Answer, for url: String) {
        guard let origin = Self.origin(of: url) else { return }
        answers.withLock { $0[origin] = answer }
    }

    /// Every origin known, as `scheme://host:port`, with its answer: what a caller keeps to start the next process
    /// from (`learn(_:)`).
    public var known: [String: Answer] { answers.withLock { $0 } }

    /// Adds what another client (or an earlier process) learnt; what this one learnt itself wins.
    public func learn(_ known: [String: Answer]) {
        answers.withLock { $0.merge(known) { mine, _ in mine } }
    }

    /// Adds what `file` holds (written by `write(to:)`, by this process or another); a missing or unreadable file,
    /// or one with entries this version does not know, adds nothing of them.
    public func learn(contentsOf file: URL) {
        guard let data = try? Data(contentsOf: file),
              let entries = try? JSONDecoder().decode([String: String].self, from: data) else { return }
        learn(entries.compactMapValues(Answer.init(rawValue:)).filter { Self.origin(of: $0.key) == $0.key })
    }

    /// Writes every origin known, with what `file` holds from others, to `file` as JSON (`{"https://host:443":
    /// "multipart"}`), replacing it in one step.
    /// - Throws: what writing the file throws.
    public func write(to file: URL) throws {
        learn(contentsOf: file)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try encoder.encode(known.mapValues(\.rawValue)).write(to: file, options: .atomic)
    }

    /// Scheme, host and port (the default port when none is written), lower-cased.
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              let host = components.host?.lowercased() else { return nil }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }
}
