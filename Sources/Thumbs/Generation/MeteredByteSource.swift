import MP4Box
import Synchronization

/// Counts the requests and bytes read through it, so each thumbnail can report what it cost.
final class MeteredByteSource: ByteSource {
    let base: any ByteSource
    private let counts = Mutex((requests: 0, bytes: UInt64(0)))

    init(_ base: any ByteSource) {
        self.base = base
    }

    var knownLength: UInt64? { get async { await base.knownLength } }
    var coalescingGap: UInt64 { base.coalescingGap }
    var version: String? { get async { await base.version } }
    var inputName: String? { base.inputName }

    /// Requests and bytes so far.
    var totals: (requests: Int, bytes: UInt64) { counts.withLock { $0 } }

    func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        let bytes = try await base.read(range)
        counts.withLock {
            $0.requests += 1
            $0.bytes += UInt64(bytes.count)
        }
        return bytes
    }

    func readSuffix(_ count: UInt64) async throws -> (bytes: [UInt8], offset: UInt64) {
        let result = try await base.readSuffix(count)
        counts.withLock {
            $0.requests += 1
            $0.bytes += UInt64(result.bytes.count)
        }
        return result
    }
}
