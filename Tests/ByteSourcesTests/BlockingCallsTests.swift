@testable import ByteSources
import Dispatch
import Synchronization
import Testing

/// Blocking calls run on threads of their own, not on those of Swift's tasks. (On this machine's two cores the tasks
/// share two threads: eight tasks blocked on a semaphore there never let a ninth run.)
@Suite struct BlockingCallsTests {
    @Test func aCallRunsOnAThreadOfItsOwnNotTheTasks() async {
        #expect(await BlockingCalls.run { BlockingCalls.isOwnThread })
        #expect(!BlockingCalls.isOwnThread)
    }

    @Test func eightBlockedCallsLeaveTheTasksThreadsFree() async throws {
        let blocked = 8
        let arrived = Counter()
        let valve = Counter()
        let gate = DispatchSemaphore(value: 0)
        // If the calls held the tasks' threads, nothing below could run: after 60 s a thread of its own opens the
        // gate, and the test fails on the valve instead of hanging. (Beside a full parallel run of CPU-bound tests on
        // two cores, the eight took 42 s to start against a 20 s valve.)
        DispatchQueue(label: "valve").asyncAfter(deadline: .now() + 60) {
            valve.value.add(1, ordering: .relaxed)
            for _ in 0..<blocked { gate.signal() }
        }
        let calls = Task {
            await withTaskGroup(of: Int.self) { group in
                for index in 0..<blocked {
                    group.addTask {
                        await BlockingCalls.run {
                            arrived.value.add(1, ordering: .relaxed)
                            gate.wait()
                            return index
                        }
                    }
                }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        // This task goes on while all eight block.
        while arrived.value.load(ordering: .relaxed) < blocked {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(valve.value.load(ordering: .relaxed) == 0, "the blocked calls held the tasks' threads until the valve opened")
        for _ in 0..<blocked { gate.signal() }
        #expect(await calls.value.sorted() == Array(0..<blocked))
    }

    @Test func aFailingCallThrowsItsError() async {
        let error = await #expect(throws: ReadError.self) {
            try await BlockingCalls.run { () throws -> Int in throw ReadError(.cannotRead, input: "x", offset: 7, "no") }
        }
        #expect(error?.offset == 7)
    }
}

/// A count the blocked calls and the test share.
private final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
