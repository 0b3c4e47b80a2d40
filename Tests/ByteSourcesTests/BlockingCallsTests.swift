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

    @Test func eightBlockedCallsDoNotWaitForEachOther() async throws {
        let blocked = 8
        let submitted = Counter()
        let arrived = Counter()
        let lateArrivals = Counter()
        let gate = DispatchSemaphore(value: 0)
        let calls = Task {
            await withTaskGroup(of: Int.self) { group in
                for index in 0..<blocked {
                    group.addTask {
                        if submitted.value.add(1, ordering: .relaxed).newValue == blocked {
                            // Once the last call is handed over (however long a loaded machine took to start the
                            // tasks), its threads have 20 s to take all eight: then the gate opens, and any call not
                            // yet there counts as late instead of the test hanging.
                            DispatchQueue(label: "valve").asyncAfter(deadline: .now() + 20) {
                                lateArrivals.value.store(blocked - arrived.value.load(ordering: .relaxed), ordering: .relaxed)
                                for _ in 0..<blocked { gate.signal() }
                            }
                        }
                        return await BlockingCalls.run {
                            arrived.value.add(1, ordering: .relaxed)
                            gate.wait()
                            return index
                        }
                    }
                }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        while arrived.value.load(ordering: .relaxed) < blocked {
            try await Task.sleep(for: .milliseconds(5))
        }
        for _ in 0..<blocked { gate.signal() }
        #expect(await calls.value.sorted() == Array(0..<blocked))
        #expect(lateArrivals.value.load(ordering: .relaxed) == 0, "calls waited for a blocked one")
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
