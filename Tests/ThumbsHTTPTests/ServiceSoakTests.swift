import ByteSources
import Foundation
import FrameDecode
import MP4Box
import MP4BoxTestSupport
import RangeFetch
import RangeFetchTestSupport
import Testing
@testable import Thumbs

/// A soak run by hand (not in CI): `THUMBS_SOAK=20000 swift test --filter ServiceSoakTests`.
///
/// Thousands of thumbnails through one `ThumbnailService` from the fault-injecting server, with faults on a share of
/// the requests (`THUMBS_SOAK_FAULTS`, default 0.1) and random cancellations, from 16 concurrent clients, with small
/// caches so that most requests are real work. Every picture must be the one a clean read of the local file gives
/// (same pixels, same actual time); every failure a typed error; at the end no work in flight and no more open
/// connections than the pool needs. Resident memory is sampled every 1,000 thumbnails and written, with the rest,
/// to `THUMBS_SOAK_REPORT` (default /tmp/thumbs-soak.json).
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["THUMBS_SOAK"] != nil))
struct ServiceSoakTests {
    static let fixtures = ["h264-faststart", "hevc-8bit", "rotate-90", "fragmented", "quicktime-h264", "h264-bframes",
                           "mirrored", "pasp-anamorphic"]
    static let fractions = [0.0, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 0.99]

    /// One kind of thumbnail: which file, when, how large, exact or not.
    struct Key: Hashable, Sendable {
        var fixture: String
        var fraction: Double
        var size: Int
        var exact: Bool

        var options: ThumbnailOptions {
            var options = ThumbnailOptions()
            options.maximumSize = PixelSize(width: size, height: size)
            options.format = .none
            if exact {
                options.requestedTimeToleranceBefore = .zero
                options.requestedTimeToleranceAfter = .zero
            }
            return options
        }
    }

    struct Expected: Sendable {
        var digest: String
        var actualTime: Double
    }

    /// What one thumbnail request ended as.
    enum Outcome: Sendable {
        case picture
        case cancelled
        case failed(String)
        case wrong(String)
    }

    /// Resident and peak memory of this process, in MB, and its thread count (from /proc/self/status).
    static func memory() -> (rss: Double, peak: Double, threads: Int) {
        func field(_ name: String) -> Double { Double(ProcessStatus.value(name) ?? 0) }
        return (field("VmRSS") / 1024, field("VmHWM") / 1024, Int(field("Threads")))
    }

    @Test func thumbnailsUnderFaultsAndCancellationStayRightAndBounded() async throws {
        let environment = ProcessInfo.processInfo.environment
        let total = Int(environment["THUMBS_SOAK"] ?? "") ?? 20_000
        let faultRate = Double(environment["THUMBS_SOAK_FAULTS"] ?? "") ?? 0.1
        let reportPath = environment["THUMBS_SOAK_REPORT"] ?? "/tmp/thumbs-soak.json"

        // Expected pictures: the same requests read cleanly from the local files.
        var keys: [Key] = []
        for fixture in Self.fixtures {
            for fraction in Self.fractions {
                for size in [48, 160] {
                    for exact in [false, true] { keys.append(Key(fixture: fixture, fraction: fraction, size: size, exact: exact)) }
                }
            }
        }
        var expected: [Key: Expected] = [:]
        for key in keys {
            let generator = try ThumbnailGenerator(path: Fixtures.path(key.fixture), options: key.options)
            let thumbnail = try await generator.image(at: .fraction(key.fraction))
            expected[key] = Expected(digest: MD5.hex(thumbnail.image.pixels), actualTime: thumbnail.actualTime)
        }

        let expectations = expected
        let kinds = keys
        var files: [String: [UInt8]] = [:]
        for fixture in Self.fixtures { files["/" + Fixtures.fileName(fixture)] = try Fixtures.bytes(fixture) }
        var faults = TestHTTPServer.Faults()
        faults.randomFaultRate = faultRate
        faults.randomStall = 0.05
        let server = try await TestHTTPServer(files: files, faults: faults)
        defer { Task { try? await server.shutdown() } }
        var fetch = HTTPFetchOptions()
        fetch.retryBackoff = .milliseconds(5)
        fetch.maximumRetries = 3
        var configuration = ThumbnailService.Configuration()
        configuration.countLimit = 24
        configuration.indexCapacity = 4
        let service = ThumbnailService(configuration: configuration)
        let requests = try keys.map { key in
            ThumbnailRequest(asset: ThumbnailAsset(try HTTPInput(url: server.url("/" + Fixtures.fileName(key.fixture)), options: fetch)),
                             time: .fraction(key.fraction), options: key.options)
        }

        let clients = 16
        let perClient = total / clients
        var samples: [(done: Int, rss: Double, peak: Double, threads: Int, openConnections: Int)] = []
        var outcomes: [String: Int] = [:]
        var wrong: [String] = []
        var done = 0
        let started = ContinuousClock.now
        // Rounds of 1,000 thumbnails (16 clients sharing them), memory sampled after each.
        var generator = SplitMix64(seed: 20_261_123)
        while done < perClient * clients {
            let round = min(1000, perClient * clients - done)
            let plans: [(index: Int, cancelAfter: Double?)] = (0..<round).map { _ in
                let index = Int(generator.next() % UInt64(keys.count))
                let cancels = generator.next() % 10 == 0
                return (index, cancels ? Double(generator.next() % 20) / 1000 : nil)
            }
            let results = await withTaskGroup(of: [(Key, Outcome)].self) { group in
                for client in 0..<clients {
                    let mine = stride(from: client, to: plans.count, by: clients).map { plans[$0] }
                    group.addTask {
                        var results: [(Key, Outcome)] = []
                        for plan in mine {
                            let key = kinds[plan.index]
                            let request = requests[plan.index]
                            let task = Task { try await service.thumbnail(request) }
                            if let delay = plan.cancelAfter {
                                try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
                                task.cancel()
                            }
                            results.append((key, Self.outcome(await task.result, expected: expectations[key])))
                        }
                        return results
                    }
                }
                var all: [(Key, Outcome)] = []
                for await results in group { all += results }
                return all
            }
            for (key, outcome) in results {
                switch outcome {
                case .picture: outcomes["picture", default: 0] += 1
                case .cancelled: outcomes["cancelled", default: 0] += 1
                case .failed(let code): outcomes["error " + code, default: 0] += 1
                case .wrong(let detail):
                    outcomes["wrong", default: 0] += 1
                    wrong.append("\(key): \(detail)")
                }
            }
            done += round
            server.resetLog()  // the server's request log lives in this process: keep it out of the memory figures
            let memory = Self.memory()
            samples.append((done, memory.rss, memory.peak, memory.threads, server.openConnections))
            print("soak: \(done) thumbnails, rss \(memory.rss) MB, peak \(memory.peak) MB, threads \(memory.threads), "
                  + "open connections \(server.openConnections), outcomes \(outcomes.sorted { $0.key < $1.key })")
        }
        // Cancelled work winds down; then nothing may be left in flight.
        var inFlight = await service.inFlightCount
        for _ in 0..<200 where inFlight > 0 {
            try await Task.sleep(nanoseconds: 10_000_000)
            inFlight = await service.inFlightCount
        }
        let seconds = Double((ContinuousClock.now - started).components.seconds)
        let statistics = await service.statistics
        let report: [String: Any] = [
            "thumbnails": done, "clients": clients, "faultRate": faultRate, "seconds": seconds,
            "serverRequests": server.requestCount, "randomFaults": server.randomFaults, "connections": server.connections,
            "openConnectionsAtEnd": server.openConnections, "inFlightAtEnd": inFlight,
            "outcomes": outcomes, "wrong": wrong,
            "generated": statistics.generated, "cacheHits": statistics.cacheHits, "coalesced": statistics.coalesced,
            "cancelledWork": statistics.cancelledWork, "indexLoads": statistics.indexLoads,
            "samples": samples.map { ["done": $0.done, "rssMB": $0.rss, "peakMB": $0.peak, "threads": $0.threads,
                                      "openConnections": $0.openConnections] },
        ]
        let json = try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys])
        try json.write(to: URL(fileURLWithPath: reportPath))
        print("soak: report in \(reportPath)")

        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
        #expect(outcomes.keys.allSatisfy { !$0.hasPrefix("error untyped") }, "\(outcomes)")
        #expect(inFlight == 0)
        // The client keeps idle connections for reuse; more open than concurrent fetches would be a leak.
        #expect(server.openConnections <= clients + configuration.maximumConcurrentFetches)
        // Flat after warm-up: the last sample's resident memory within 20 % of the one after the second thousand.
        if samples.count >= 4 {
            #expect(samples[samples.count - 1].rss <= samples[1].rss * 1.2, "rss \(samples.map(\.rss))")
        }
    }

    /// What a finished request means, against the picture expected for it.
    static func outcome(_ result: Result<Thumbnail, any Error>, expected: Expected?) -> Outcome {
        switch result {
        case .success(let thumbnail):
            guard let expected else { return .wrong("no expectation") }
            if thumbnail.actualTime != expected.actualTime {
                return .wrong("actual time \(thumbnail.actualTime), expected \(expected.actualTime)")
            }
            let digest = MD5.hex(thumbnail.image.pixels)
            return digest == expected.digest ? .picture : .wrong("pixels \(digest), expected \(expected.digest)")
        case .failure(let error as FetchError):
            return .failed("fetch." + error.code.rawValue)
        case .failure(let error as ThumbnailError):
            return .failed("thumbnail." + error.code.rawValue)
        case .failure(let error as MP4Error):
            return .failed("mp4." + error.code.rawValue)
        case .failure(let error as DecodeError):
            return .failed("decode." + error.code.rawValue)
        case .failure(is CancellationError):
            return .cancelled
        case .failure(let error):
            return .failed("untyped \(type(of: error)): \(error)")
        }
    }
}
