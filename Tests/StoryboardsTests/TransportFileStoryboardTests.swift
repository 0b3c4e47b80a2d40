import ByteSources
import MP4Box
import MP4BoxTestSupport
import Storyboards
import Testing
import Thumbs

/// The storyboard of a bare transport stream file (one segment, the whole file, whose keyframes a search finds):
/// each cue shows the keyframe nearest its start, as ffprobe lists the keyframes, not the file's first one.
@Suite struct TransportFileStoryboardTests {
    @Test func eachCueShowsTheKeyframeNearestItsStart() async throws {
        let file = try #require(TransportReferences.all.first { $0.name == "search-30s.ts" })
        var options = StoryboardOptions()
        options.interval = .seconds(1)
        let storyboard = try await Media.withMedia(of: FileInput(path: file.path)) { media in
            try await StoryboardMaker(media: media, options: options).make { _, _ in }
        }
        #expect(storyboard.cues.count == 30)
        let keyframes = file.keyframes.map(\.pts)
        for cue in storyboard.cues {
            let start = Double(cue.timeRange.lowerBound.components.seconds) * 90_000
            let nearest = try #require(keyframes.min { (abs(Double($0) - start), $0) < (abs(Double($1) - start), $1) })
            #expect((cue.keyframeTime.seconds * 90_000).rounded() == Double(nearest), "cue at \(cue.timeRange.lowerBound)")
        }
        // Every keyframe of the file is some cue's (they are at most 2 s apart, the cues 1 s).
        #expect(Set(storyboard.cues.map { Int64((($0.keyframeTime.seconds) * 90_000).rounded()) }) == Set(keyframes))
    }
}
