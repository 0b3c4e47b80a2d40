import ByteSources
import MP4Box

/// A byte source whose reads wait until the test opens the gate, and which counts reads; for tests of
/// coalescing and cancellation that count work instead of sleeping.
actor GatedByteSource: ByteSource {
    let base: MemoryByteSource
    private var isOpen: Bool
    private var waiting: [CheckedContinuation<Void, any Error>] = []
    /// Reads started (waiting or done).
    private(set) var reads = 0
    /// Reads that ended in cancellation.
    private(set) var cancelledReads = 0

    init(_ bytes: [UInt8], open: Bool = false) {
        base = MemoryByteSource(bytes)
        isOpen = open
    }

    nonisolated var knownLength: UInt64? { get async { UInt64(base.bytes.count) } }

    func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        reads += 1
        if !isOpen {
            do {
                try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                        if isOpen { continuation.resume() } else { waiting.append(continuation) }
                    }
                } onCancel: {
                    Task { await self.cancelAll() }
                }
            } catch {
                cancelledReads += 1
                throw error
            }
        }
        try Task.checkCancellation()
        return try await base.read(range)
    }

    /// Lets every waiting and future read through.
    func open() {
        isOpen = true
        let ready = waiting
        waiting.removeAll()
        for continuation in ready { continuation.resume() }
    }

    /// Reads waiting at the gate now.
    var waitingCount: Int { waiting.count }

    private func cancelAll() {
        let ready = waiting
        waiting.removeAll()
        for continuation in ready { continuation.resume(throwing: CancellationError()) }
    }
}

/// Yields until `condition` holds (at most `limit` times); for waiting on actor state without sleeping.
func eventually(_ limit: Int = 100_000, _ condition: () async -> Bool) async -> Bool {
    for _ in 0..<limit {
        if await condition() { return true }
        await Task.yield()
    }
    return await condition()
}
