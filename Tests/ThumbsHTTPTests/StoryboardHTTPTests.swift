import MP4Box
import MP4BoxTestSupport
import RangeFetch
import RangeFetchTestSupport
import Testing
import Storyboards
import Thumbs

/// What a storyboard costs over HTTP, counted by the server: the index plus the keyframes used, and no more
/// than 5 % above that.
@Suite(.timeLimit(.minutes(2))) struct StoryboardHTTPTests {
    /// The key packets (ffprobe) nearest each cue start of `interval` ms over ffprobe's duration, the earlier on a tie.
    static func keyPacketsUsed(_ expectation: FixtureExpectation, intervalMilliseconds interval: Int64) -> [FixtureExpectation.Packet] {
        let duration = Int64(((expectation.duration ?? 0) * 1000).rounded())
        let timescale = Int64(expectation.timescale ?? 1000)
        let keys = expectation.packets.filter(\.key).sorted { $0.pts < $1.pts }
        var used: [Int64: FixtureExpectation.Packet] = [:]
        var start: Int64 = 0
        while start < duration {
            let nearest = keys.min { lhs, rhs in
                let left = abs(lhs.pts * 1000 - start * timescale)
                let right = abs(rhs.pts * 1000 - start * timescale)
                return left == right ? lhs.pts < rhs.pts : left < right
            }
            if let nearest { used[nearest.pts] = nearest }
            start += interval
        }
        return used.values.sorted { $0.pts < $1.pts }
    }

    /// The ranges a Range header asks for, as they are written (`bytes=a-b,c-d`: `a-b`, `c-d`).
    static func parts(of header: String) -> [String] {
        header.dropFirst("bytes=".count).split(separator: ",").map(String.init)
    }

    @Test(arguments: Fixtures.videoNames)
    func bytesAreTheIndexPlusTheKeyframesUsed(_ name: String) async throws {
        let server = try await TestHTTPServer(files: ["/\(name).mp4": try Fixtures.bytes(name)])
        defer { Task { try? await server.shutdown() } }
        let url = server.url("/\(name).mp4")
        // The server answers several ranges with multipart/byteranges, and the shared client is told so.
        RangeFetchClient.shared.rangeSupport.remember(.multipart, for: url)

        // The index alone, as a thumbnail's first step reads it, with ends of 16 KiB (the fixtures are at most
        // 110 KB: with the default ends most would come whole in the first read).
        var locatorOptions = MovieLocator.Options()
        locatorOptions.headSize = 16 * 1024
        locatorOptions.tailSize = 16 * 1024
        let locator = MovieLocator(options: locatorOptions)
        let located = try await locator.locate(in: HTTPByteSource(url: url))
        let held = located.heldBytes.spans.map(\.range)
        let indexBytes = server.bodyBytes
        let indexRequests = server.requests.count
        server.resetLog()

        var options = StoryboardOptions()
        options.interval = .milliseconds(250)
        var written = 0
        let maker = StoryboardMaker(source: try HTTPByteSource(url: url), options: options, locator: locator)
        let storyboard = try await maker.make { _, bytes in
            written += bytes.count
        }
        #expect(written > 0)
        let keyframes = Self.keyPacketsUsed(try Fixtures.expectation(name), intervalMilliseconds: 250)
        let keyframeBytes = keyframes.reduce(0) { $0 + Int($1.size) }
        #expect(storyboard.keyframeCount == keyframes.count)
        #expect(storyboard.keyframeBytes == UInt64(keyframeBytes))
        let total = server.bodyBytes
        #expect(Double(total) <= Double(indexBytes + keyframeBytes) * 1.05,
                "\(name): \(total) bytes, index \(indexBytes) + keyframes \(keyframeBytes)")
        // Each keyframe outside the ends already read is asked for once, exactly its bytes (ffprobe's pos and size),
        // from where the held bytes stop when its start is in the head; the keyframes are read in runs of up to 16 (the
        // server answers multipart/byteranges), one request for each run with a keyframe not held.
        let isHeld = { (key: FixtureExpectation.Packet) in
            held.contains { $0.lowerBound <= key.pos && key.pos + UInt64(key.size) <= $0.upperBound }
        }
        let unheld = keyframes.filter { !isHeld($0) }
        let runsToRead = stride(from: 0, to: keyframes.count, by: 16).filter { start in
            keyframes[start..<min(start + 16, keyframes.count)].contains { !isHeld($0) }
        }.count
        let keyRanges = Set(unheld.map { key in
            let start = key.pos + UInt64(located.heldBytes.prefix(of: key.pos..<key.pos + UInt64(key.size)).count)
            return "\(start)-\(key.pos + UInt64(key.size) - 1)"
        })
        let sampleRequests = server.requests.dropFirst(indexRequests).compactMap(\.range)
        let asked = sampleRequests.flatMap(Self.parts(of:))
        #expect(Set(asked) == keyRanges)
        #expect(asked.count == keyRanges.count)
        #expect(sampleRequests.count == runsToRead)
    }

    @Test(arguments: [TestHTTPServer.MultipleRangeAnswer.firstRange, .whole, .refused])
    func aServerThatAnswersOneRangeGivesTheSameStoryboard(_ answer: TestHTTPServer.MultipleRangeAnswer) async throws {
        let name = "h264-bframes"
        let server = try await TestHTTPServer(files: ["/\(name).mp4": try Fixtures.bytes(name)])
        defer { Task { try? await server.shutdown() } }
        var options = StoryboardOptions()
        options.interval = .milliseconds(250)
        func make() async throws -> (Storyboard, [String: [UInt8]]) {
            try await RoundTripTests.withFreshClient { client in
                var files: [String: [UInt8]] = [:]
                var locatorOptions = MovieLocator.Options()  // 16 KiB ends: the keyframes lie between them
                locatorOptions.headSize = 16 * 1024
                locatorOptions.tailSize = 16 * 1024
                let source = try HTTPByteSource(url: server.url("/\(name).mp4"), client: client)
                let storyboard = try await StoryboardMaker(source: source, options: options,
                                                           locator: MovieLocator(options: locatorOptions))
                    .make { file, bytes in files[file] = bytes }
                return (storyboard, files)
            }
        }
        let (expected, expectedFiles) = try await make()
        server.update { $0.multipleRanges = answer }
        server.resetLog()
        let (storyboard, files) = try await make()
        #expect(storyboard.keyframeCount == expected.keyframeCount)
        #expect(files == expectedFiles)
        // The ends as two ranges side by side, the keyframes between them asked for together once (to learn how
        // the server answers), then each keyframe that answer did not bring, alone.
        let several = try #require(server.requests.firstIndex { Self.parts(of: $0.range ?? "").count > 2 })
        #expect(several == 2)
        let after = server.requests[(several + 1)...]
        #expect(after.allSatisfy { $0.status == 206 && $0.range?.contains(",") == false })
        let asked = Self.parts(of: try #require(server.requests[several].range))
        // The first range alone brings one; a whole answer none here (the first keyframe asked for lies past the
        // 16 KiB head: too many bytes before it to be worth reading), nor does a refusal.
        #expect(after.count == (answer == .firstRange ? asked.count - 1 : asked.count))
    }
}
