import ByteSources
import MP4Box

/// The fuzzer's bytes as a file, with its length known or hidden (as a server answering `bytes 0-N/*` hides it).
public struct FuzzByteSource: ByteSource {
    let bytes: [UInt8]
    let hidesLength: Bool

    public init(_ bytes: [UInt8], hidesLength: Bool) {
        self.bytes = bytes
        self.hidesLength = hidesLength
    }

    public var knownLength: UInt64? { hidesLength ? nil : UInt64(bytes.count) }

    public func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        let lower = Int(min(range.lowerBound, UInt64(bytes.count)))
        let upper = Int(min(max(range.upperBound, UInt64(lower)), UInt64(bytes.count)))
        return Array(bytes[lower..<upper])
    }
}
