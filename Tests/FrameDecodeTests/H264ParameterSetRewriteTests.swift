@_spi(Fuzzing) import FrameDecode
import MP4Box
import MP4BoxTestSupport
import Testing

/// An SPS rewritten with another max_num_ref_frames: that field alone changes, bit for bit, on every H.264 fixture.
@Suite struct H264ParameterSetRewriteTests {
    static let h264Names = Fixtures.videoNames.filter { (try? Fixtures.expectation($0))?.codecName == "h264" }

    static func sequenceParameterSets(_ name: String) async throws -> [[UInt8]] {
        let movie = try MovieLocator().locate(in: MemoryFile(try Fixtures.bytes(name))).movie
        let entry = try #require(movie.primaryVideoTrack?.visualEntry)
        return entry.avcConfiguration?.sequenceParameterSets ?? []
    }

    @Test(arguments: h264Names)
    func onlyMaxNumRefFramesChanges(_ name: String) async throws {
        let sets = try await Self.sequenceParameterSets(name)
        #expect(!sets.isEmpty || name == "h264-avc3", "\(name) has no SPS in avcC")
        for sps in sets {
            let count = try #require(H264SequenceParameterSet.maxNumRefFrames(of: sps))
            let rewritten = try #require(H264SequenceParameterSet.settingMaxNumRefFrames(of: sps, to: 0))
            #expect(H264SequenceParameterSet.maxNumRefFrames(of: rewritten) == 0)
            // Everything the picture needs reads the same.
            let (before, after) = (try H264SequenceParameterSet.parse(sps), try H264SequenceParameterSet.parse(rewritten))
            #expect(before.width == after.width && before.height == after.height && before.profile == after.profile)
            #expect(before.level == after.level && before.bitDepthLuma == after.bitDepthLuma)
            #expect(before.colour == after.colour && before.sampleAspectRatio.map { [$0.0, $0.1] } == after.sampleAspectRatio.map { [$0.0, $0.1] })
            // And setting the count back gives the SPS as it was, byte for byte.
            #expect(H264SequenceParameterSet.settingMaxNumRefFrames(of: rewritten, to: count) == sps)
        }
    }

    @Test func escapesWhatTheNewBitsMakeLookLikeAStartCode() throws {
        // profile 66, constraints 0, level 0, sps_id 0 (1), log2_max_frame_num_minus4 0 (1), poc type 2 (011),
        // max_num_ref_frames 1 (010), then the rest as zeros and one stop bit: setting the count to 0 (1) shifts the
        // rest left by two bits, and the zero bytes that follow need an emulation prevention byte.
        // RBSP 66 0 0 0b1101_1010 0 0 0 1, escaped: a 03 before the third zero of the run.
        let nal: [UInt8] = [0x67, 66, 0, 0, 0b1101_1010, 0, 0, 3, 0, 1]
        #expect(H264SequenceParameterSet.maxNumRefFrames(of: nal) == 1)
        let rewritten = try #require(H264SequenceParameterSet.settingMaxNumRefFrames(of: nal, to: 0))
        #expect(H264SequenceParameterSet.maxNumRefFrames(of: rewritten) == 0)
        // No two zero bytes are followed by a byte of 3 or less but the 03 that escapes them.
        for index in 2..<rewritten.count where rewritten[index - 2] == 0 && rewritten[index - 1] == 0 {
            #expect(rewritten[index] == 3 || rewritten[index] > 3, "start code emulated at \(index): \(rewritten)")
        }
        #expect(rewritten == [0x67, 66, 0, 0, 0b1101_1100, 0, 0, 3, 0, 0b0000_0100])  // 11011 1, 31 zeros, the stop bit
        #expect(H264SequenceParameterSet.settingMaxNumRefFrames(of: rewritten, to: 1) == nal)
    }

    /// The level-6.0 fixture's SPS is given to openh264 at level 5.2, the rest byte for byte the same (by the
    /// SPS parser: the same picture); every other fixture's SPS (5.2 or below) is given as it is.
    @Test(arguments: h264Names)
    func onlyALevelAboveFivePointTwoIsLowered(_ name: String) async throws {
        for sps in try await Self.sequenceParameterSets(name) {
            let given = H264SequenceParameterSet.cappingLevel(of: sps)
            let before = try H264SequenceParameterSet.parse(sps)
            if name == "h264-level6" {
                #expect(before.level == 60)
                #expect(try H264SequenceParameterSet.parse(given).level == 52)
                #expect(Array(given.prefix(3)) == Array(sps.prefix(3)) && Array(given.dropFirst(4)) == Array(sps.dropFirst(4)))
            } else {
                #expect(before.level <= 52 && given == sps, "\(name): level \(before.level)")
            }
        }
    }

    @Test func aCutOffSPSIsLeftAlone() {
        #expect(H264SequenceParameterSet.settingMaxNumRefFrames(of: [0x67, 66, 0], to: 0) == nil)
        #expect(H264SequenceParameterSet.maxNumRefFrames(of: [0x67]) == nil)
    }
}
