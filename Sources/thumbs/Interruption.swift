import Dispatch
import Foundation
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM turned into a call, once, instead of the process's end: a batch stops cleanly, its
/// outputs whole. A second signal ends the process at once (`_exit`, status 128 + the signal).
///
/// `@unchecked Sendable`: `sources` is set once in `init` and only read after; Dispatch sources may be cancelled from
/// any thread (libdispatch's objects are thread-safe), and the rest is kept behind a mutex (`State`).
final class Interruption: @unchecked Sendable {
    /// Whether a signal came, and what to call when one does.
    private final class State: Sendable {
        let value = Mutex<(signal: Int32?, action: (@Sendable () -> Void)?)>((nil, nil))

        /// Notes `number`: whether it is the first signal, and the action to call now.
        func raise(_ number: Int32) -> (first: Bool, action: (@Sendable () -> Void)?) {
            value.withLock { state in
                defer { state.signal = state.signal ?? number }
                return (state.signal == nil, state.action)
            }
        }
    }

    private let state = State()
    private let sources: [DispatchSourceSignal]

    /// Listens for SIGINT and SIGTERM from now until `end()`: the first is remembered (and calls the action
    /// `onSignal(_:)` sets), a second ends the process.
    init() {
        let state = state
        // A serial queue of its own: it gets a thread at once. On `.global()` the handler waited for one of the
        // threads that Swift's tasks run on, which decoding and rendering pictures keep busy (a Ctrl-C took seconds).
        let queue = DispatchQueue(label: "thumbs.interruption")
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                let (first, action) = state.raise(number)
                // A second signal ends the process here: the signal itself, raised again from a Dispatch thread,
                // would wait on that thread's blocked mask.
                if first { action?() } else { _exit(128 + number) }
            }
            return source
        }
        for source in sources { source.resume() }
    }

    /// Calls `action` at the first signal, or now when it has come already.
    func onSignal(_ action: @escaping @Sendable () -> Void) {
        let raised = state.value.withLock { state in
            state.action = action
            return state.signal != nil
        }
        if raised { action() }
    }

    /// The first signal that came, if one did.
    var signalReceived: Int32? { state.value.withLock { $0.signal } }

    /// Stops listening: the signals end the process again.
    func end() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
