import ByteSources
import MP4Box
import MP4BoxTestSupport
import Storyboards
import Testing
import Thumbs

/// Cue times and keyframe choice against ffprobe's duration and packet list.
@Suite struct StoryboardPlanTests {
    /// Intervals (ms) that are whole ticks at 1/12800, so the nearest-keyframe oracle needs no rounding.
    static let intervals: [Int64] = [100, 250, 480, 1000]

    @Test(arguments: Fixtures.videoNames, intervals)
    func cuesCoverTheDurationAndPickTheNearestKeyframe(_ name: String, _ interval: Int64) async throws {
        let expectation = try Fixtures.expectation(name)
        let track = try #require(try await MovieLocator().locate(in: FileByteSource(path: Fixtures.path(name))).movie.primaryVideoTrack)
        var options = StoryboardOptions()
        options.interval = .milliseconds(interval)
        let plan = try StoryboardPlan(track: track, options: options)
        let duration = StoryboardOracles.durationMilliseconds(expectation)
        #expect(plan.duration == .milliseconds(duration))
        #expect(plan.cueCount == Int((duration + interval - 1) / interval))
        #expect(plan.cueStart(0) == .zero)
        #expect(plan.cueEnd(plan.cueCount - 1) == .milliseconds(duration))
        for cue in 0..<plan.cueCount {
            #expect(plan.cueStart(cue) == .milliseconds(Int64(cue) * interval))
            let expected = StoryboardOracles.nearestKeyPTS(to: plan.cueStart(cue), in: expectation)
            #expect(plan.keyframes[plan.cueKeyframes[cue]].presentationTime == expected, "\(name) cue \(cue)")
        }
        // Distinct keyframes, once each, in presentation order.
        let distinct = Set((0..<plan.cueCount).compactMap { StoryboardOracles.nearestKeyPTS(to: plan.cueStart($0), in: expectation) })
        #expect(plan.keyframes.map(\.presentationTime) == distinct.sorted())
        #expect(plan.keyframeBytes == distinct.reduce(0) { $0 + StoryboardOracles.keyPacketSize(pts: $1, in: expectation) })
        #expect(zip(plan.cueKeyframes, plan.cueKeyframes.dropFirst()).allSatisfy { $0 <= $1 })
    }

    /// Sync samples whose presentation times are out of decode order (1, 3, 5, 7 at 463, 377, 1196 and 952 ms, each
    /// sample 100 ms in decode order) make the keyframe at 377 ms the nearest to cues 0-4, the one at 463 ms to cue
    /// 5, and 377 ms again to cue 6. The maker places a keyframe's tile over its run of cues and then drops it, so
    /// cue 6 could never be placed and the storyboard ended after 6 cues of 8 without an error; the plan refuses it.
    @Test func aKeyframeShownAgainAfterAnotherIsRefused() async throws {
        var movie = SyntheticMovie()
        movie.timescale = 1000
        movie.durations = [UInt32](repeating: 100, count: 8)
        movie.edits = nil
        movie.syncSamples = [1, 3, 5, 7]
        movie.compositionOffsets = [463, 554, 177, 451, 796, 5, 352, 769]
        let track = try #require(try await MovieLocator().locate(in: MemoryByteSource(movie.bytes())).movie.primaryVideoTrack)
        var options = StoryboardOptions()
        options.interval = .milliseconds(100)
        let error = #expect(throws: StoryboardError.self) { try StoryboardPlan(track: track, options: options) }
        #expect(error?.code == .unorderedKeyframes)
        #expect(error?.detail == "cue 6 (600 ms) is nearest the keyframe at 377 ms again, after cue 5's at 463 ms: "
                + "the sync samples' presentation times are out of decode order", "\(error?.detail ?? "")")
        movie.compositionOffsets = [0, 0, 0, 0, 0, 0, 0, 0]  // in order: one run of cues per keyframe
        let ordered = try #require(try await MovieLocator().locate(in: MemoryByteSource(movie.bytes())).movie.primaryVideoTrack)
        #expect(try StoryboardPlan(track: ordered, options: options).cueKeyframes == [0, 0, 1, 1, 2, 2, 3, 3])
    }

    @Test func defaultIntervalGivesAboutFiftyOrAHundredCues() {
        #expect(StoryboardOptions.defaultInterval(forDuration: .seconds(60)) == .milliseconds(1200))   // 50 cues
        #expect(StoryboardOptions.defaultInterval(forDuration: .seconds(600)) == .milliseconds(12000))  // 50 cues
        #expect(StoryboardOptions.defaultInterval(forDuration: .seconds(7200)) == .milliseconds(72000)) // 100 cues
        #expect(StoryboardOptions.defaultInterval(forDuration: .seconds(3)) == .milliseconds(1000))     // never below 1 s
        #expect(StoryboardOptions.defaultInterval(forDuration: .seconds(899)) == .milliseconds(18000))  // under 15 min: 50
        #expect(StoryboardOptions.defaultInterval(forDuration: .seconds(900)) == .milliseconds(9000))   // from 15 min: 100
        #expect(StoryboardOptions.defaultInterval(forDuration: .seconds(61)) == .milliseconds(1300))   // 1.22 s, up to a tenth
        #expect(StoryboardOptions.defaultInterval(forDuration: .zero) == .seconds(1))
    }

    @Test func fetchGroupsMergeOnlyFollowingRanges() async throws {
        // h264-avc3 with every frame a cue at 40 ms: keyframes are a GOP apart, so with no gap nothing merges,
        // and with a gap as large as the file every keyframe is one read.
        let track = try #require(try await MovieLocator().locate(in: FileByteSource(path: Fixtures.path("h264-bframes"))).movie.primaryVideoTrack)
        var options = StoryboardOptions()
        options.interval = .milliseconds(40)
        let plan = try StoryboardPlan(track: track, options: options)
        #expect(plan.fetchGroups(maximumGap: 0).count == plan.keyframes.count)
        let merged = plan.fetchGroups(maximumGap: 1 << 20)
        #expect(merged == [0..<plan.keyframes.count])
        #expect(plan.fetchGroups(maximumGap: 1 << 20, maximumCount: 2).allSatisfy { $0.count <= 2 })
    }

    /// The video track of a synthetic movie.
    static func syntheticTrack(_ movie: SyntheticMovie) async throws -> MovieTrack {
        let located = try await MovieLocator().locate(in: MemoryByteSource(movie.bytes()))
        return try #require(located.movie.primaryVideoTrack)
    }

    @Test func tooManyCuesIsAnInvalidOption() async throws {
        var movie = SyntheticMovie()
        movie.edits = [(4_000_000_000, 1024, 0x10000)]  // 4e6 s on the movie timeline
        let track = try await Self.syntheticTrack(movie)
        var options = StoryboardOptions()
        options.interval = .seconds(1)
        #expect { try StoryboardPlan(track: track, options: options) } throws: {
            ($0 as? StoryboardError)?.code == .invalidOption
        }
    }

    @Test func aTrackWithoutSyncSamplesHasNoKeyframe() async throws {
        var movie = SyntheticMovie()
        movie.syncSamples = []
        let track = try await Self.syntheticTrack(movie)
        #expect { try StoryboardPlan(track: track, options: StoryboardOptions()) } throws: {
            ($0 as? StoryboardError)?.code == .noKeyframe
        }
    }

    @Test func optionsOutOfRangeAreInvalid() {
        let changes: [(inout StoryboardOptions) -> Void] = [
            { $0.interval = .zero },
            { $0.interval = .seconds(-1) },
            { $0.tileWidth = 0 },
            { $0.columns = 0 },
            { $0.format = .jpeg(quality: 101) },
            { $0.sheetTemplate = "sheet.jpg" },
            { $0.maximumConcurrentFetches = 0 },
            { $0.maximumSheetBytes = 0 },
        ]
        let cases = changes.map { change in
            var options = StoryboardOptions()
            change(&options)
            return options
        }
        for options in cases {
            #expect(throws: StoryboardError.self) { try options.validate() }
            #expect((try? options.validate()) == nil)
        }
        #expect(throws: Never.self) { try StoryboardOptions().validate() }
    }
}
