extension ByteSource {
    /// Bytes of each read of the default `read(_:until:)`.
    public static var streamingPieceBytes: UInt64 { 64 << 10 }

    /// The default: reads of `streamingPieceBytes` one after another, each handed over whole, until `consume` has
    /// enough or a read comes back short (the end of the source).
    public func read(_ range: Range<UInt64>, until consume: @Sendable (ArraySlice<UInt8>) throws -> Bool) async throws -> UInt64 {
        var start = range.lowerBound
        while start < range.upperBound {
            let asked = min(Self.streamingPieceBytes, range.upperBound - start)
            let bytes = try await read(start ..< start + asked)
            start += UInt64(bytes.count)
            if try consume(bytes[...]) || UInt64(bytes.count) < asked { break }
        }
        return start - range.lowerBound
    }
}
