import Dispatch
import Synchronization

/// Runs `body` to its end on the calling thread and returns: libFuzzer's entry point is synchronous.
///
/// The task prefers `CallingThreadExecutor`, so its jobs (and its child tasks', which inherit the preference) run
/// here, and the task is freed before this returns. On the global executor it was freed on a pool thread after the
/// semaphore woke the caller, so an input often ended with more mallocs than frees: libFuzzer then re-ran it with a
/// full leak scan, which made LocatorFuzzer 2.6 times slower, and after 1,000 such inputs turned leak detection off
/// for the rest of the run ("libFuzzer disabled leak detection after every mutation").
public func runBlocking(_ body: @escaping @Sendable () async -> Void) {
    let finished = FinishedFlag()
    Task(executorPreference: CallingThreadExecutor.shared) {
        await body()
        finished.value.store(true, ordering: .releasing)
    }
    CallingThreadExecutor.shared.drain(until: { finished.value.load(ordering: .acquiring) })
}

private final class FinishedFlag: Sendable {
    let value = Atomic<Bool>(false)
}

/// A task executor whose jobs run on the thread that drains it. Other threads may enqueue (a timer, or a
/// continuation resumed elsewhere, hands its job back here); the caller of `drain` runs each job in order.
final class CallingThreadExecutor: TaskExecutor {
    static let shared = CallingThreadExecutor()

    private let jobs = Mutex<[UnownedJob]>([])
    private let enqueued = DispatchSemaphore(value: 0)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        enqueued.signal()
    }

    /// Runs jobs as they arrive until `isFinished` holds after one of them; the job that finishes the task also
    /// releases it, before this returns.
    func drain(until isFinished: () -> Bool) {
        while !isFinished() {
            enqueued.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
