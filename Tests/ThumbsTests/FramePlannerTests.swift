import MP4Box
import MP4BoxTestSupport
import Testing
import Thumbs

/// Which samples an exact frame needs: from the sync sample before it, leaving out what sdtp says no sample depends
/// on only where a sample is one picture.
@Suite struct FramePlannerTests {
    /// Eight samples without reordering, sync samples 0 and 4, sdtp saying samples 2, 3, 6 and 7 are disposable.
    static func track(sampleEntry: [UInt8]) throws -> Track {
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
}
