/// A byte source over bytes already in memory.
public struct MemoryByteSource: ByteSource {
    /// The bytes.
    public let bytes: [UInt8]

    /// A source over `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public var knownLength: UInt64? { UInt64(bytes.count) }

    public func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        let count = UInt64(bytes.count)
        let lower = min(range.lowerBound, count)
        let upper = min(max(range.upperBound, lower), count)
        return Array(bytes[Int(lower)..<Int(upper)])
    }
}
