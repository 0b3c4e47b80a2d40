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
        try await withThrowingTaskGroup(of: (Int, Result<Value, any Error>).self) { tasks in
            var next = positions.lowerBound
            func startNext() {
                guard next < positions.upperBound, !Task.isCancelled else { return }
                let position = next
                next += 1
                tasks.addTask {
                    do {
                        return (position, .success(try await evaluate(position)))
                    } catch is CancellationError {
                        throw CancellationError()
                    } catch {
                        return (position, .failure(error))
                    }
                }
            }
            for _ in 0..<max(1, limit) { startNext() }
            while let (position, result) = try await tasks.next() {
                results[position - positions.lowerBound] = result
                startNext()
            }
        }
        try Task.checkCancellation()
        return results
    }
}
