#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// Runs blocking system calls (file reads, `stat`) on threads of their own. Swift's concurrent tasks share a pool of
/// about one thread a core: a task blocked in `pread` on a slow disk or a network file system holds one of them, and
/// a few such reads at once stop every other task in the process.
///
/// Calls wait in one queue for the first of `threadCount` threads that is free (each a serial dispatch queue that
/// gets a thread of its own at once; a concurrent queue gets more threads only about one a second once its first
/// ones block). Only when every thread is blocked does a call wait for one.
package enum BlockingCalls {
    /// How many calls can block at once before another waits.
    package static let threadCount = 16

    private static let work = Mutex<[@Sendable () -> Void]>([])
    /// The threads' identities (`pthread_self`), as each starts.
    private static let own = Mutex<Set<UInt>>([])
    private static let waiting = DispatchSemaphore(value: 0)
    private static let threads: Void = {
        for index in 0..<threadCount {
            DispatchQueue(label: "thumbs.blocking-calls.\(index)").async {
                _ = own.withLock { $0.insert(currentThread()) }
                while true {
                    waiting.wait()
                    let next = work.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                    next?()
                }
            }
        }
    }()

    /// Whether the calling thread is one of these (for tests: a call runs on one).
    package static var isOwnThread: Bool {
        own.withLock { $0.contains(currentThread()) }
    }

    /// The calling thread's identity.
    private static func currentThread() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    /// Hands `job` to the first free thread.
    private static func submit(_ job: @escaping @Sendable () -> Void) {
        _ = threads
        work.withLock { $0.append(job) }
        waiting.signal()
    }

    /// The result of `work`, run on a thread of its own while the calling task is suspended.
    /// - Throws: what `work` throws.
    package static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            submit { continuation.resume(with: Result { try work() }) }
        }
    }

    /// The result of `work`, run on a thread of its own while the calling task is suspended.
    package static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            submit { continuation.resume(returning: work()) }
        }
    }
}
