import ByteSources
import MP4Box
import MP4BoxTestSupport
import Testing
import Thumbs

/// Which samples an exact frame needs: from the sync sample before it, leaving out what sdtp says no sample depends
/// on only where a sample is one picture.
@Suite struct FramePlannerTests {
    /// Eight samples without reordering, sync samples 0 and 4, sdtp saying samples 2, 3, 6 and 7 are disposable.
    static func track(sampleEntry: [UInt8]) throws -> MovieTrack {
        var movie = SyntheticMovie(sampleEntry: sampleEntry)
        movie.compositionOffsets = nil
        movie.edits = nil
        movie.sdtp = [0x24, 0x14, 0x18, 0x18, 0x24, 0x14, 0x18, 0x18]
        return try #require(try MovieParser.parse(fileBytes: movie.bytes()).tracks.first)
    }

    @Test func disposableH264SamplesAreLeftOut() throws {
        let track = try Self.track(sampleEntry: SyntheticMovie.avc1Entry())
        let plan = try FramePlanner.plan(track: track, time: 3 * 512, selection: .exact)
        #expect(plan.samples.map(\.index) == [0, 1, 3])
    }

    @Test func av1SamplesAreNeverLeftOut() throws {
        // An AV1 temporal unit marked disposable may still hold hidden frames that later ones show (media3's
        // sample_with_av1c.mp4 in Fixtures/real-world is such a file).
        let track = try Self.track(sampleEntry: SyntheticMovie.av01Entry(configOBUs: SyntheticMovie.av1SequenceHeader()))
        let plan = try FramePlanner.plan(track: track, time: 3 * 512, selection: .exact)
        #expect(plan.samples.map(\.index) == [0, 1, 2, 3])
    }

    @Test func leadingPictureOfTheFirstSyncSampleIsDecodedFromTheFirstSample() async throws {
        // media3's file: 23 samples before its first sync sample (a CRA, sample 23), then RASL pictures shown before
        // it. At 0.26 s the frame on screen is one of them: it needs the samples before the CRA, as ffmpeg decodes
        // them (from the start); from the CRA alone libde265 drops it and there was no picture.
        let name = "media3-sample_edit_list_no_sync_frame_before_edit.mp4"
        let source = try FileByteSource(path: MediaCorpus.realWorld.path(name))
        let track = try #require(try await MovieLocator().locate(in: source).movie.primaryVideoTrack)
        let plan = try FramePlanner.plan(track: track, time: track.presentationTime(seconds: 0.26), selection: .exact)
        let firstSync = try track.samples.sample(at: track.samples.sampleIndex(ofSyncSample: 0))
        #expect(plan.targetPresentationTime < track.presentationTime(of: firstSync), "a leading picture")
        #expect(plan.samples.first?.index == 0)
        let frame = try await FrameExtractor(source: source, track: track).frame(for: plan)
        #expect(frame.sampleIndex == plan.target.index)
    }
}
