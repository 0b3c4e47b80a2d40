/// The one error type of the `TransportStream` layer: what is wrong with an MPEG transport stream, and where in it.
///
/// Its description says where, then what: `https://cdn.example/a/segment3.ts, byte 376, PID 256: PES header declares 19 header bytes, the packet holds 9`.
public struct TransportStreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure; callers branch on this. New kinds may be added (a `switch` over it in another module needs an
    /// `@unknown default`).
    @nonexhaustive
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// The bytes are not an MPEG transport stream: no sync byte (0x47) every 188 bytes from the start.
        case notTransportStream
        /// The stream contradicts ISO/IEC 13818-1 (a table or PES header larger than what holds it, a bad
        /// timestamp marker).
        case malformed
        /// A valid stream this reader does not decode: no H.264, HEVC, MPEG-2 or MPEG-4 Part 2 video in its program, scrambled or
        /// encrypted video.
        case unsupported
        /// An access unit or the bytes held passed a `TransportStreamLimits` cap.
        case limitExceeded
    }

    /// The kind of failure.
    public var code: Code
    /// The URL or path of the stream, when the reader was told it (`located(input:)`).
    public var input: String?
    /// The offset in the stream of the packet where it was found, when there is one.
    public var offset: UInt64?
    /// The packet identifier of the stream where it was found, when there is one.
    public var pid: UInt16?
    /// A short, factual, lower-case description.
    public var detail: String

    /// Makes an error.
    public init(_ code: Code, offset: UInt64? = nil, pid: UInt16? = nil, _ detail: String) {
        self.code = code
        self.offset = offset
        self.pid = pid
        self.detail = detail
    }

    /// The error with `input` named, unless it names one already.
    public func located(input: String?) -> TransportStreamError {
        var located = self
        located.input = self.input ?? input
        return located
    }

    /// Where (the input, byte offset, PID), then what.
    public var description: String {
        let place = [input, offset.map { "byte \($0)" }, pid.map { "PID \($0)" }].compactMap { $0 }
        return place.isEmpty ? detail : place.joined(separator: ", ") + ": " + detail
    }
}
