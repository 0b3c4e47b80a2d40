import BoundedTasks
import Synchronization
import Testing

/// The one bounded task-group loop: never more at once than its limit, every item once, errors and cancellation end it.
@Suite struct BoundedTaskGroupTests {
    /// How many pieces of work are under way, and the most there were at once.
    final class Gauge: Sendable {
        private let counts = Mutex((now: 0, most: 0))
        func enter() { counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) } }
        func leave() { counts.withLock { $0.now -= 1 } }
        var most: Int { counts.withLock { $0.most } }
    }

    @Test(arguments: [1, 3, 8])
    func neverMoreAtOnceThanTheLimitAndEveryItemOnce(limit: Int) async throws {
        let gauge = Gauge()
        var seen: [Int] = []
        try await BoundedTaskGroup.run(0..<40, atMost: limit, { item in
            gauge.enter()
            defer { gauge.leave() }
            try await Task.sleep(for: .milliseconds(item % 3))
            return item
        }) { item in seen.append(item) }
        #expect(seen.sorted() == Array(0..<40))
        #expect(gauge.most <= limit)
        #expect(gauge.most >= 1)
    }

    @Test func mapGivesTheValuesInTheItemsOrder() async throws {
        // Later items end first: the order is the items', not the ends'.
        let values = try await BoundedTaskGroup.map([30, 20, 10, 0], atMost: 4) { delay in
            try await Task.sleep(for: .milliseconds(delay))
            return delay * 2
        }
        #expect(values == [60, 40, 20, 0])
    }

    @Test func aLimitBelowOneRunsOneAtATime() async throws {
        let gauge = Gauge()
        let values = try await BoundedTaskGroup.map(0..<5, atMost: 0) { item in
            gauge.enter()
            defer { gauge.leave() }
            await Task.yield()
            return item
        }
        #expect(values == [0, 1, 2, 3, 4])
        #expect(gauge.most == 1)
    }

    @Test func admittingHoldsItemsBackUntilResultsComeIn() async throws {
        // Item n may start only once n - 2 results are in: at most two ahead of what has finished.
        var finished = 0
        var startedAhead: [Int] = []
        try await BoundedTaskGroup.run(0..<10, atMost: 8, admitting: { item in
            startedAhead.append(item - finished)
            return item < finished + 2
        }, { item in item }) { _ in finished += 1 }
        #expect(finished == 10)
        #expect(startedAhead.filter { $0 < 2 }.count == 10)
    }

    struct Refused: Error {}

    @Test func theFirstErrorEndsTheWholeAndIsThrown() async {
        let started = Mutex(0)
        await #expect(throws: Refused.self) {
            try await BoundedTaskGroup.run(0..<100, atMost: 2, { item in
                started.withLock { $0 += 1 }
                if item == 3 { throw Refused() }
                try await Task.sleep(for: .milliseconds(1))
                return item
            }) { _ in }
        }
        #expect(started.withLock { $0 } < 100)
    }

    @Test func anErrorOfTheResultsHandlerIsThrown() async {
        await #expect(throws: Refused.self) {
            try await BoundedTaskGroup.run(0..<10, atMost: 2, { $0 }) { item in if item == 1 { throw Refused() } }
        }
    }

    /// A run cut short by the caller's cancellation throws, even when every piece of work it started ended well: its
    /// results are not the whole (a storyboard would otherwise be kept with the cues placed so far).
    @Test func aRunCutShortByCancellationThrows() async {
        let task = Task {
            var seen = 0
            try await BoundedTaskGroup.run(0..<1_000, atMost: 1, { item in item }) { _ in
                seen += 1
                if seen == 3 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return seen
        }
        await #expect(throws: CancellationError.self) { _ = try await task.value }
    }

    @Test func nothingStartsOnceTheCallerIsCancelled() async {
        let started = Mutex(0)
        let task = Task {
            try await BoundedTaskGroup.map(0..<1_000, atMost: 1) { item in
                started.withLock { $0 += 1 }
                await Task.yield()
                return item
            }
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(started.withLock { $0 } < 1_000)
    }
}
