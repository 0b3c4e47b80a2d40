import Foundation
import MP4BoxTestSupport
import RangeFetchTestSupport
import Testing

/// Every input HTTPFuzzer found a broken invariant with (Fuzz/findings/http/), replayed through the same
/// `ScriptedFetchCase`: every step now ends as bytes within what was asked or a typed error, and none breaks an
/// invariant.
@Suite struct HTTPFuzzFindingTests {
    static let folder = Fixtures.repositoryRoot.appendingPathComponent("Fuzz/findings/http")
    static let findings: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".bin") }.sorted()

    @Test func findingsArePresent() {
        #expect(!Self.findings.isEmpty)
    }

    @Test(arguments: findings)
    func findingKeepsEveryInvariant(_ name: String) async throws {
        let input = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name)))
        let fetchCase = try #require(ScriptedFetchCase(input))
        let report = await fetchCase.run()
        #expect(report.violations.isEmpty, "\(report.violations); outcomes \(report.outcomes); exchanges \(report.exchanges)")
        // The locator (unless switched off), four reads and the suffix read each gave an answer.
        #expect(report.outcomes.count == (fetchCase.runsLocator ? 6 : 5), "\(report.outcomes)")
    }
}
