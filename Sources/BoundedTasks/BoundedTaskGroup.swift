/// Work side by side within a bound: the one task-group loop every module uses (reading ranges, deciding best-frame
/// candidates, a storyboard's keyframes, a batch's movies).
public enum BoundedTaskGroup {
    /// Runs `work` for each of `items` in their order, at most `limit` at once (at least one), and hands each value to
    /// `onResult` on the calling task as its work ends (in the order they end). `admits` is asked before each start
    /// (again after each result) and holds the next item back while it says no; work started stays bounded by
    /// `limit` either way. Once the calling task is cancelled no more work starts. The loop ends when no work is under
    /// way: an item `admits` still holds back then is not started.
    /// - Throws: the first error of `work` or `onResult`, the work still under way cancelled; `CancellationError` when
    ///   the calling task was cancelled before every item started (the work that did start has ended).
    public static func run<Item: Sendable, Value: Sendable>(
        _ items: some Collection<Item>, atMost limit: Int, admitting admits: (Item) -> Bool = { _ in true },
        _ work: @escaping @Sendable (Item) async throws -> Value,
        onResult: (Value) async throws -> Void
    ) async throws {
        let items = Array(items)
        try await withThrowingTaskGroup(of: Value.self) { group in
            var next = 0
            var running = 0
            func startWhatFits() {
                while running < max(1, limit), next < items.count, !Task.isCancelled, admits(items[next]) {
                    let item = items[next]
                    next += 1
                    running += 1
                    group.addTask { try await work(item) }
                }
            }
            startWhatFits()
            while let value = try await group.next() {
                running -= 1
                try await onResult(value)
                startWhatFits()
            }
            // Stopped short by the caller's cancellation, not done: a caller must not take the results for the whole.
            if next < items.count, Task.isCancelled { throw CancellationError() }
        }
    }

    /// `work` for each of `items`, at most `limit` at once (`run(_:atMost:admitting:_:onResult:)`), the values in
    /// the items' order.
    /// - Throws: the first error of `work`, the work still under way cancelled; `CancellationError` when the calling
    ///   task was cancelled before every item started.
    public static func map<Item: Sendable, Value: Sendable>(
        _ items: some Collection<Item>, atMost limit: Int, _ work: @escaping @Sendable (Item) async throws -> Value
    ) async throws -> [Value] {
        let items = Array(items)
        var values = [Value?](repeating: nil, count: items.count)
        try await run(items.indices, atMost: limit, { index in (index, try await work(items[index])) }) { made in
            values[made.0] = made.1
        }
        guard values.allSatisfy({ $0 != nil }) else { throw CancellationError() }
        return values.compactMap { $0 }
    }
}
