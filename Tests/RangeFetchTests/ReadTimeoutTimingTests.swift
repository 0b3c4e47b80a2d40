import RangeFetch
import RangeFetchTestSupport
import Testing

/// Read timeouts against a server paced in real time: `scripts/test.sh` runs this suite alone, after the parallel
/// run, as it runs the burst tests. Beside the parallel run and a busy loop, all three tries of the test below
/// once saw a 2 s wait between 10 ms chunks, at the run's busiest minute.
@Suite(.timeLimit(.minutes(1))) struct ReadTimeoutTimingTests {
    static let file = HTTPByteSourceTests.file

    @Test func readTimeoutBoundsEachWaitNotTheWholeBody() async throws {
        // 50 KB at 12.5 KB/s take 4 s, in chunks 10 ms apart: twice the 2 s read timeout, never a 2 s wait. A timeout
        // on the whole body fails every try. Load can only make a try fail (a full parallel run starved the paced
        // server past 4 s between chunks, once in two runs), never make one succeed, so the first of up to three
        // tries to bring the whole body counts.
        var outcomes: [String] = []
        for _ in 0..<3 {
            do {
                try await HTTPByteSourceTests.withSource(faults: .init { $0.bandwidth = 12_500 },
                                                         options: FetchOptionsTests.options { $0.readTimeout = .seconds(2) }) { source, _ in
                    let started = ContinuousClock.now
                    let body = try await source.read(0..<50_000)
                    #expect(body == Array(Self.file[0..<50_000]))
                    #expect(ContinuousClock.now - started > .seconds(2))
                }
                return
            } catch let error as FetchError where error.code == .timedOut {
                outcomes.append(error.description)
            }
        }
        Issue.record("every try timed out: \(outcomes)")
    }
}
