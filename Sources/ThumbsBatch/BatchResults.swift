/// The results of a running `ThumbnailBatch`, one per movie as each finishes; the sequence ends when the batch is
/// done or stopped.
///
/// The batch runs whether or not the results are read (they wait in memory, one small value each). Stop it with
/// `cancel()`, then iterate on to the end: once the sequence ends, no output is being written. A task iterating it
/// that is cancelled stops the batch too, without waiting for the movies under way.
public final class BatchResults: AsyncSequence, Sendable {
    public typealias Element = BatchResult

    private let stream: AsyncStream<BatchResult>
    private let task: Task<Void, Never>

    /// Starts `work`, which yields the results and returns when the batch is done.
    init(_ work: @escaping @Sendable (AsyncStream<BatchResult>.Continuation) async -> Void) {
        let (stream, continuation) = AsyncStream.makeStream(of: BatchResult.self, bufferingPolicy: .unbounded)
        let task = Task {
            await work(continuation)
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        self.stream = stream
        self.task = task
    }

    /// Stops the batch: no movie is started, those under way are cancelled; the sequence ends once they are gone.
    public func cancel() {
        task.cancel()
    }

    public func makeAsyncIterator() -> AsyncStream<BatchResult>.Iterator {
        stream.makeAsyncIterator()
    }
}
