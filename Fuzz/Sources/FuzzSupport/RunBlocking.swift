import Dispatch

/// Runs `body` on the concurrency runtime and waits for it: libFuzzer's entry point is synchronous.
public func runBlocking(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await body()
        done.signal()
    }
    done.wait()
}
