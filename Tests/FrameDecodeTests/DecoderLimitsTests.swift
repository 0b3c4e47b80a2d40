import FrameDecode
import MP4Box
import MP4BoxTestSupport
import Testing

/// `DecoderLimits`: no sequence parameter set (AV1: sequence header), in the sample entry or in band, reaches openh264,
/// libde265 or dav1d when its pictures are larger than the limit, so none can size the decoder's allocations past it.
@Suite struct DecoderLimitsTests {
    /// A track of one 64x48 picture whose avcC holds `sps`.
    static func track(sps: [UInt8]) throws -> MovieTrack {
        let entry = SyntheticMovie.avc1Entry(sps: sps)
        return try #require(try MovieParser.parse(fileBytes: SyntheticMovie(sampleEntry: entry).bytes()).tracks.first)
    }

    /// `limits` with at most `samples` luma samples a picture.
    static func limits(_ samples: Int) -> DecoderLimits {
        var limits = DecoderLimits()
        limits.maximumLumaSamples = samples
        return limits
    }

    /// `nal` behind a 4-byte length prefix.
    static func lengthPrefixed(_ nal: [UInt8]) -> [UInt8] {
        withUnsafeBytes(of: UInt32(nal.count).bigEndian) { Array($0) } + nal
    }

    @Test func spsOf16384By16384IsRefusedBeforeOpenH264SeesIt() throws {
        // 1024 x 1024 macroblocks: 268 million luma samples, 7.5 times what level 6.2 allows.
        let track = try Self.track(sps: SyntheticMovie.sps(macroblocks: (1024, 1024)))
        #expect(track.videoParameters?.codedWidth == 16384)
        let error = try #require(throws: DecodeError.self) { _ = try VideoDecoderFactory.makeDecoder(for: track) }
        #expect(error.code == .limitExceeded)
        #expect(error.detail.contains("16384x16384"))
    }

    @Test func largestPictureAnyLevelAllowsIsAccepted() throws {
        // 512 x 272 macroblocks = 8192 x 4352: exactly level 6.2's 139,264 macroblocks.
        let largest = try Self.track(sps: SyntheticMovie.sps(macroblocks: (512, 272)))
        _ = try VideoDecoderFactory.makeDecoder(for: largest)
        let oneRowMore = try Self.track(sps: SyntheticMovie.sps(macroblocks: (512, 273)))
        #expect(throws: DecodeError.self) { _ = try VideoDecoderFactory.makeDecoder(for: oneRowMore) }
    }

    @Test(arguments: ["h264-faststart", "hevc-8bit", "av1-8bit", "av1-10bit", "vp9-8bit", "vp9-10bit"])
    func limitIsInclusiveOnTheSampleEntrysSPS(_ name: String) async throws {
        let fixture = try DecoderFixture(name)
        let expected = try Fixtures.expectation(name)
        // The coded size is the display size rounded up to whole macroblocks (16) or coding blocks (8 at least).
        let parameters = try #require(fixture.track.videoParameters)
        let width = try #require(expected.width)
        #expect(parameters.codedWidth >= width && parameters.codedWidth < width + 16)
        let samples = parameters.codedWidth * parameters.codedHeight
        let decoder = try VideoDecoderFactory.makeDecoder(for: fixture.track, limits: Self.limits(samples))
        #expect(!(try decoder.decode(try fixture.keyframe()) + decoder.flush()).isEmpty)
        let error = try #require(throws: DecodeError.self) {
            _ = try VideoDecoderFactory.makeDecoder(for: fixture.track, limits: Self.limits(samples - 1))
        }
        #expect(error.code == .limitExceeded)
    }

    @Test func inBandH264SPSPastTheLimitIsRefusedWithItsSample() async throws {
        let fixture = try DecoderFixture("h264-faststart")
        let decoder = try VideoDecoderFactory.makeDecoder(for: fixture.track)
        var input = try fixture.keyframe()
        input.bytes = Self.lengthPrefixed(SyntheticMovie.sps(macroblocks: (1024, 1024))) + input.bytes
        let error = try #require(throws: DecodeError.self) { _ = try decoder.decode(input) }
        #expect(error.code == .limitExceeded)
        #expect(error.sampleIndex == input.sample.index)
    }

    /// A VP9 key frame whose header asks for 16384x16384 pictures (profile 0, colour space unknown, limited range) is
    /// refused with its sample before libvpx sees it; the fixture's own key frame states its 320x240 (ffprobe's).
    @Test func vp9KeyFramePastTheLimitIsRefusedWithItsSample() async throws {
        let fixture = try DecoderFixture("vp9-8bit")
        var input = try fixture.keyframe()
        let stated = try #require(try VPFrameHeader.parse(input.bytes, vp9: true))
        #expect([stated.codedWidth, stated.codedHeight] == [try Fixtures.expectation("vp9-8bit").width, try Fixtures.expectation("vp9-8bit").height])
        let decoder = try VideoDecoderFactory.makeDecoder(for: fixture.track)
        input.bytes = [0x82, 0x49, 0x83, 0x42, 0x03, 0xFF, 0xF3, 0xFF, 0xF0] + Array(repeating: 0, count: 16)
        let error = try #require(throws: DecodeError.self) { _ = try decoder.decode(input) }
        #expect(error.code == .limitExceeded)
        #expect(error.sampleIndex == input.sample.index)
    }

    /// An SPS cut off after its profile (H.264), a sequence header OBU of one byte (AV1), before the sample's own.
    @Test(arguments: [("h264-faststart", [0, 0, 0, 2, 0x67, 0x42]), ("av1-8bit", [0x0A, 0x01, 0x00])] as [(String, [UInt8])])
    func inBandSPSThatCannotBeReadIsRefused(_ name: String, prefix: [UInt8]) async throws {
        let fixture = try DecoderFixture(name)
        let decoder = try VideoDecoderFactory.makeDecoder(for: fixture.track)
        var input = try fixture.keyframe()
        input.bytes = prefix + input.bytes
        let error = try #require(throws: DecodeError.self) { _ = try decoder.decode(input) }
        #expect(error.code == .malformedSample)
        #expect(error.sampleIndex == input.sample.index)
    }

    /// hev1 keyframes carry VPS, SPS and PPS in band, and the AV1 fixture's keyframes their sequence header: with the
    /// configuration's left out, only the in-band ones can be refused.
    @Test(arguments: ["hevc-hev1", "av1-8bit"])
    func inBandSequenceParameterSetPastTheLimitIsRefusedWithItsSample(_ name: String) async throws {
        let fixture = try DecoderFixture(name)
        var configuration = try CodecConfiguration(entry: try #require(fixture.track.visualEntry))
        configuration.parameterSets = []
        configuration.videoParameters = nil
        func decoder(limit: Int) throws -> any VideoDecoder {
            configuration.codec == .av1
                ? try Dav1dDecoder(configuration: configuration, colour: nil, limits: Self.limits(limit))
                : try De265Decoder(configuration: configuration, colour: nil, limits: Self.limits(limit))
        }
        let input = try fixture.keyframe()
        let parameters = try #require(fixture.track.videoParameters)
        let samples = parameters.codedWidth * parameters.codedHeight
        let fits = try decoder(limit: samples)
        #expect(!(try fits.decode(input) + fits.flush()).isEmpty)
        let tight = try decoder(limit: samples - 1)
        let error = try #require(throws: DecodeError.self) { _ = try tight.decode(input) }
        #expect(error.code == .limitExceeded)
        #expect(error.sampleIndex == input.sample.index)
    }

    @Test func av1CSequenceHeaderOf65536SquareIsRefusedBeforeDav1dSeesIt() throws {
        let header = SyntheticMovie.av1SequenceHeader(level: 31, width: 65536, height: 65536)
        let movie = SyntheticMovie(sampleEntry: SyntheticMovie.av01Entry(configOBUs: header, level: 31))
        let track = try #require(try MovieParser.parse(fileBytes: movie.bytes()).tracks.first)
        let error = try #require(throws: DecodeError.self) { _ = try VideoDecoderFactory.makeDecoder(for: track) }
        #expect(error.code == .limitExceeded)
        #expect(error.detail.contains("65536x65536"))
    }
}
