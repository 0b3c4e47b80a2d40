import BoundedTasks

extension ByteSource {
    /// The default: the reads side by side, at most `concurrentReads` at once.
    public func read(ranges: [Range<UInt64>]) async throws -> [[UInt8]] {
        try await BoundedTaskGroup.map(ranges, atMost: concurrentReads) { range in try await read(range) }
    }
}

/// Most reads one `read(ranges:)` of a source without its own has under way at once.
private let concurrentReads = 16
