import FrameDecode
import MP4Box
import MP4BoxTestSupport
import Testing

@Suite struct VideoDecoderFactoryTests {
    static func track(entry: [UInt8]) throws -> MovieTrack {
        try #require(try MovieParser.parse(fileBytes: SyntheticMovie(sampleEntry: entry).bytes()).tracks.first)
    }

    /// A codec without a decoder here is named, with its entry's code, in the error; one libavcodec decodes says that
    /// the FFmpegDecoders build does (and that build decodes it).
    @Test(arguments: [("mp4v", "MPEG-4 Part 2 Visual", true), ("s263", "H.263", true), ("apch", "Apple ProRes 422 HQ", true),
                      ("xdv7", "MPEG-2 Video", true), ("vvc1", "VVC (H.266)", false), ("zzzz", "unknown video codec 'zzzz'", false)])
    func otherCodecsAreUnsupported(_ code: String, _ name: String, _ libavcodecDecodes: Bool) throws {
        let track = try Self.track(entry: SyntheticMovie.visualEntry(code, children: []))
        #if FFmpegDecoders
        if libavcodecDecodes {
            #expect(try VideoDecoderFactory.makeDecoder(for: track) is FFmpegDecoder)
            return
        }
        #endif
        let hint = libavcodecDecodes ? "; a build with the FFmpegDecoders trait decodes it" : ""
        #expect(throws: DecodeError(.unsupportedCodec, "this build has no decoder for \(name) (\(code))\(hint)")) {
            _ = try VideoDecoderFactory.makeDecoder(for: track)
        }
    }

    /// Motion JPEG and PNG samples are whole images: their entries need no configuration.
    @Test(arguments: [("jpeg", true), ("mjpa", true), ("AVDJ", true), ("dmb1", true), ("png ", false)])
    func imageEntriesGetTheirDecoders(_ code: String, _ isJPEG: Bool) throws {
        let track = try Self.track(entry: SyntheticMovie.visualEntry(code, children: []))
        let decoder = try VideoDecoderFactory.makeDecoder(for: track)
        #expect(isJPEG ? decoder is MotionJPEGDecoder : decoder is PNGFrameDecoder)
    }

    /// VP8 and VP9 key frames state their picture: an entry without vpcC is decoded all the same (by libvpx).
    @Test(arguments: ["vp08", "vp09"])
    func vpEntriesNeedNoConfiguration(_ code: String) throws {
        let track = try Self.track(entry: SyntheticMovie.visualEntry(code, children: []))
        #expect(try VideoDecoderFactory.makeDecoder(for: track) is VPXDecoder)
    }

    @Test func avc1WithoutAvcCIsABadConfiguration() throws {
        let track = try Self.track(entry: SyntheticMovie.visualEntry("avc1", children: []))
        #expect(throws: DecodeError(.badConfiguration, "avc1 sample entry has no avcC")) {
            _ = try VideoDecoderFactory.makeDecoder(for: track)
        }
    }

    @Test func av01WithoutAv1CIsABadConfiguration() throws {
        let track = try Self.track(entry: SyntheticMovie.visualEntry("av01", children: []))
        #expect(throws: DecodeError(.badConfiguration, "av01 sample entry has no av1C")) {
            _ = try VideoDecoderFactory.makeDecoder(for: track)
        }
    }

    /// openh264 cannot decode interlaced H.264: refused before decoding, or given to libavcodec with the trait.
    @Test func interlacedH264IsRefusedBeforeDecoding() throws {
        // Main profile 64x48, frame_mbs_only_flag = 0, mb_adaptive_frame_field_flag = 1.
        let sps = SyntheticMovie.sps(profile: 77, frameMBsOnly: false)
        let track = try Self.track(entry: SyntheticMovie.avc1Entry(sps: sps, pps: [0x68, 0xCE, 0x38, 0x80]))
        #expect(track.videoParameters?.isInterlaced == true)
        #if FFmpegDecoders
        #expect(try VideoDecoderFactory.makeDecoder(for: track) is FFmpegDecoder)
        #else
        let error = try #require(throws: DecodeError.self) { _ = try VideoDecoderFactory.makeDecoder(for: track) }
        #expect(error.code == .unsupportedFeature)
        #expect(error.detail.contains("interlaced") && error.detail.contains("FFmpegDecoders"))
        #endif
    }

    @Test func encryptedTrackIsUnsupported() throws {
        let sinf = BoxBuilder.box("sinf", BoxBuilder.box("frma", BoxBuilder.fourCC("avc1"))
            + BoxBuilder.fullBox("schm", BoxBuilder.fourCC("cenc") + BoxBuilder.u32(0x10000)))
        let track = try Self.track(entry: SyntheticMovie.visualEntry("encv", children: sinf))
        #expect(track.isEncrypted)
        #expect(track.codingFormat == "avc1")
        let error = try #require(throws: DecodeError.self) { _ = try VideoDecoderFactory.makeDecoder(for: track) }
        #expect(error.code == .unsupportedCodec)
        #expect(error.detail.contains("encrypted"))
    }

    @Test(arguments: ["h264-faststart", "h264-avc3", "hevc-8bit", "hevc-hev1", "hevc-main10", "av1-8bit", "av1-10bit"])
    func fixturesGetADecoder(_ name: String) async throws {
        let fixture = try DecoderFixture(name)
        _ = try VideoDecoderFactory.makeDecoder(for: fixture.track)
    }
}
