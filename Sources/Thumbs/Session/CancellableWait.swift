import Synchronization

/// The value of `task`, which another call started and others may share, for a caller that may be cancelled
/// meanwhile: the caller's cancellation ends its wait at once with `CancellationError` and leaves `task` running for
/// the others. (Awaiting `task.value` alone holds a cancelled caller until `task` ends.)
func cancellableValue<Success: Sendable>(of task: Task<Success, any Error>) async throws -> Success {
    let outcome = FirstOutcome<Success>()
    Task { outcome.settle(await task.result) }
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { outcome.wait($0) }
    } onCancel: {
        outcome.settle(.failure(CancellationError()))
    }
}

/// The first of several outcomes, handed to one waiting continuation: the task's result or the caller's
/// cancellation, whichever comes first; later ones are dropped.
private final class FirstOutcome<Success: Sendable>: Sendable {
    private struct State {
        var waiting: CheckedContinuation<Success, any Error>?
        var outcome: Result<Success, any Error>?
    }

    private let state = Mutex(State())

    /// Resumes `continuation` with the outcome, at once when there is one.
    func wait(_ continuation: CheckedContinuation<Success, any Error>) {
        let settled = state.withLock { state -> Result<Success, any Error>? in
            if state.outcome == nil { state.waiting = continuation }
            return state.outcome
        }
        if let settled { continuation.resume(with: settled) }
    }

    /// Records `outcome` if it is the first, and resumes the waiting continuation with it.
    func settle(_ outcome: Result<Success, any Error>) {
        let waiting = state.withLock { state -> CheckedContinuation<Success, any Error>? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume(with: outcome)
    }
}
