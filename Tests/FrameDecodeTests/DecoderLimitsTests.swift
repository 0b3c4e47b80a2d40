import FrameDecode
import MP4Box
import MP4BoxTestSupport
import Testing

/// `DecoderLimits`: no sequence parameter set, in the sample entry or in band, reaches openh264 or libde265 when its
/// pictures are larger than the limit, so no SPS can size the decoder's allocations past it.
@Suite struct DecoderLimitsTests {
    /// A track of one 64x48 picture whose avcC holds `sps`.
    static func track(sps: [UInt8]) throws -> Track {
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

    @Test(arguments: ["h264-faststart", "hevc-8bit"])
    func limitIsInclusiveOnTheSampleEntrysSPS(_ name: String) async throws {
        let fixture = try await DecoderFixture(name)
        let expected = try Fixtures.expectation(name)
        // The coded size is the display size rounded up to whole macroblocks (16) or coding blocks (8 at least).
        let parameters = try #require(fixture.track.videoParameters)
        let width = try #require(expected.width)
        #expect(parameters.codedWidth >= width && parameters.codedWidth < width + 16)
        let samples = parameters.codedWidth * parameters.codedHeight
        let decoder = try VideoDecoderFactory.makeDecoder(for: fixture.track, limits: Self.limits(samples))
        #expect(!(try decoder.decode(try await fixture.keyframe()) + decoder.flush()).isEmpty)
        let error = try #require(throws: DecodeError.self) {
            _ = try VideoDecoderFactory.makeDecoder(for: fixture.track, limits: Self.limits(samples - 1))
        }
        #expect(error.code == .limitExceeded)
    }

    @Test func inBandH264SPSPastTheLimitIsRefusedWithItsSample() async throws {
        let fixture = try await DecoderFixture("h264-faststart")
        let decoder = try VideoDecoderFactory.makeDecoder(for: fixture.track)
        var input = try await fixture.keyframe()
        input.bytes = Self.lengthPrefixed(SyntheticMovie.sps(macroblocks: (1024, 1024))) + input.bytes
        let error = try #require(throws: DecodeError.self) { _ = try decoder.decode(input) }
        #expect(error.code == .limitExceeded)
        #expect(error.sampleIndex == input.sample.index)
    }

    @Test func inBandSPSThatCannotBeReadIsRefused() async throws {
        let fixture = try await DecoderFixture("h264-faststart")
        let decoder = try VideoDecoderFactory.makeDecoder(for: fixture.track)
        var input = try await fixture.keyframe()
        input.bytes = Self.lengthPrefixed([0x67, 0x42]) + input.bytes  // an SPS cut off after its profile
        let error = try #require(throws: DecodeError.self) { _ = try decoder.decode(input) }
        #expect(error.code == .malformedSample)
        #expect(error.sampleIndex == input.sample.index)
    }

    @Test func inBandHEVCSPSPastTheLimitIsRefusedWithItsSample() async throws {
        // hev1 keyframes carry VPS, SPS and PPS in band: leave them out of the configuration so only those count.
        let fixture = try await DecoderFixture("hevc-hev1")
        var configuration = try CodecConfiguration(entry: try #require(fixture.track.visualEntry))
        configuration.parameterSets = []
        let input = try await fixture.keyframe()
        let units = try LengthPrefixedNALUnits.ranges(in: input.bytes, lengthSize: configuration.nalUnitLengthSize)
        try #require(units.contains { (input.bytes[$0.lowerBound] >> 1) & 0x3F == 33 })
        let parameters = try #require(fixture.track.videoParameters)
        let samples = parameters.codedWidth * parameters.codedHeight
        let fits = try De265Decoder(configuration: configuration, colour: nil, limits: Self.limits(samples))
        #expect(!(try fits.decode(input) + fits.flush()).isEmpty)
        let tight = try De265Decoder(configuration: configuration, colour: nil, limits: Self.limits(samples - 1))
        let error = try #require(throws: DecodeError.self) { _ = try tight.decode(input) }
        #expect(error.code == .limitExceeded)
        #expect(error.sampleIndex == input.sample.index)
    }
}
