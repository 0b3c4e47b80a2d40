import MP4BoxTestSupport
import Testing
import Thumbs

/// `ThumbnailTime.best` on the real-world corpus, judged by ffmpeg's filters (`keyframe-looks.json`): when ffmpeg
/// sees a candidate keyframe that is neither near-black nor flat, the one chosen is neither either.
///
/// Serialized, as the conformance suite is: a hundred movies decoded at once would starve other suites' timers.
@Suite(.serialized) struct RealWorldBestFrameTests {
    static let looks = (try? MediaCorpus.realWorld.keyframeLooks()) ?? [:]

    @Test func everyDecodableMovieIsJudged() {
        #expect(Self.looks.count >= 60, "\(Self.looks.count) movies in keyframe-looks.json")
    }

    @Test(.timeLimit(.minutes(2)), arguments: Self.looks.keys.sorted())
    func neverPicksANearBlackOrFlatKeyframeWhenThereIsAnother(_ name: String) async throws {
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 160, height: 160)
        let thumbnail = try await ThumbnailGenerator(path: MediaCorpus.realWorld.path(name), options: options).image(at: .best)
        let keyframes = Self.looks[name] ?? []
        // ffmpeg's keyframe at each candidate's time (none for one it does not decode, as a preroll sample).
        let judged = thumbnail.candidates.compactMap { candidate in
            keyframes.first { abs($0.time - candidate.time) < 0.0005 }.map { (candidate, $0) }
        }
        // ffmpeg lists a keyframe at the time of at least one candidate whenever it lists any.
        #expect(keyframes.isEmpty || !judged.isEmpty, "\(name): no candidate is at a keyframe ffmpeg lists")
        let chosen = try #require(thumbnail.candidates.first { $0.isChosen })
        #expect(chosen.time == thumbnail.actualTime)
        // With a candidate ffmpeg finds fine, the chosen one is fine too (with none, any may be chosen).
        if let good = judged.first(where: { !$0.1.isNearBlackOrFlat }) {
            let look = try #require(judged.first { $0.0.isChosen }?.1,
                                    "\(name): ffmpeg has no keyframe at the chosen \(chosen.time) s")
            #expect(!look.isNearBlackOrFlat,
                    "\(name): chose \(chosen.time) s (\(look)), while ffmpeg finds \(good.0.time) s fine (\(good.1))")
        }
    }
}
