import BoundedTasks

/// Evaluates best-frame candidates side by side: the one way both generators read, decode and score theirs.
enum CandidateEvaluation {
    /// `evaluate(position)` for every position of `positions`, at most `limit` at once, none started once the task is
    /// cancelled; each one's value or error, in position order (nil for one never started). A candidate's error is
    /// its result; a `CancellationError` ends the whole.
    /// - Throws: `CancellationError`.
    static func results<Value: Sendable>(of positions: Range<Int>, limit: Int,
                                         _ evaluate: @escaping @Sendable (Int) async throws -> Value)
        async throws -> [Result<Value, any Error>?] {
        var results = [Result<Value, any Error>?](repeating: nil, count: positions.count)
        try await BoundedTaskGroup.run(positions, atMost: limit, { position in
            do {
                return (position, Result<Value, any Error>.success(try await evaluate(position)))
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                return (position, .failure(error))
            }
        }) { evaluated in
            results[evaluated.0 - positions.lowerBound] = evaluated.1
        }
        try Task.checkCancellation()
        return results
    }
}
