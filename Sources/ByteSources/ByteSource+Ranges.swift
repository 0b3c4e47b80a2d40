extension ByteSource {
    /// The default: the reads side by side, at most `concurrentReads` at once.
    public func read(ranges: [Range<UInt64>]) async throws -> [[UInt8]] {
        try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            var results = [[UInt8]](repeating: [], count: ranges.count)
            var next = 0
            func enqueue() {
                guard next < ranges.count else { return }
                let index = next
                next += 1
                group.addTask { (index, try await read(ranges[index])) }
            }
            for _ in 0..<concurrentReads { enqueue() }
            while let (index, bytes) = try await group.next() {
                results[index] = bytes
                enqueue()
            }
            return results
        }
    }
}

/// Most reads one `read(ranges:)` of a source without its own has under way at once.
private let concurrentReads = 16
