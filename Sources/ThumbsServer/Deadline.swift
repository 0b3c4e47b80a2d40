/// Runs `body`, or gives up on it after `seconds` with `ServerError` `deadlineExceeded` (the body is cancelled).
func withDeadline<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw ServerError(.deadlineExceeded, "no answer within \(seconds) s")
        }
        return value
    }
}
