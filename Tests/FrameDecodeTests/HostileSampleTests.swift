import FrameDecode
import MP4Box
import MP4BoxTestSupport
import Testing

/// Corrupt and hostile samples: typed errors or no picture, never a crash.
@Suite struct HostileSampleTests {
    static let codecs = ["h264-faststart", "hevc-8bit", "av1-8bit", "av1-10bit"]
    /// The codecs whose samples are length-prefixed NAL units.
    static let nalCodecs = ["h264-faststart", "hevc-8bit"]

    /// Decoding must either throw a `DecodeError` or produce no picture for the bad sample.
    static func expectRefusal(_ fixture: DecoderFixture, _ inputs: [DecoderInput], badIndex: Int,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let frames = try fixture.decodeAll(inputs)
            #expect(!frames.contains { $0.sampleIndex == badIndex }, "a picture came out of a bad sample", sourceLocation: sourceLocation)
        } catch {
            #expect([.malformedSample, .decoderRejected, .missingParameterSets, .noFrame].contains(error.code),
                    "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: nalCodecs)
    func nalLengthBeyondTheSampleIsMalformed(_ name: String) async throws {
        let fixture = try DecoderFixture(name)
        var input = try fixture.keyframe()
        input.bytes.replaceSubrange(0..<4, with: [0x7F, 0xFF, 0xFF, 0xFF])
        #expect(throws: DecodeError.self) { _ = try fixture.decodeAll([input]) }
    }

    @Test(arguments: codecs)
    func truncatedSampleIsMalformed(_ name: String) async throws {
        let fixture = try DecoderFixture(name)
        var input = try fixture.keyframe()
        input.bytes.removeLast(input.bytes.count / 2)
        do {
            _ = try fixture.decodeAll([input])
            Issue.record("a truncated sample decoded")
        } catch {
            #expect(error.code == .malformedSample)
        }
    }

    @Test(arguments: nalCodecs)
    func truncatedNALWithAConsistentLengthIsRefused(_ name: String) async throws {
        // Cut the last NAL short and rewrite its length to match: the slice data itself ends early.
        let fixture = try DecoderFixture(name)
        var input = try fixture.keyframe()
        let ranges = try LengthPrefixedNALUnits.ranges(in: input.bytes, lengthSize: 4)
        let last = try #require(ranges.last)
        let keep = min(8, last.count)
        input.bytes = Array(input.bytes[0..<last.lowerBound + keep])
        input.bytes.replaceSubrange(last.lowerBound - 4..<last.lowerBound, with: [0, 0, 0, UInt8(keep)])
        Self.expectRefusal(fixture, [input], badIndex: input.sample.index)
    }

    @Test(arguments: codecs)
    func zeroFilledSampleIsRefused(_ name: String) async throws {
        let fixture = try DecoderFixture(name)
        var input = try fixture.keyframe()
        input.bytes = [UInt8](repeating: 0, count: input.bytes.count)
        Self.expectRefusal(fixture, [input], badIndex: input.sample.index)
    }

    @Test(arguments: nalCodecs)
    func randomBytesAfterAValidLengthAreRefused(_ name: String) async throws {
        let fixture = try DecoderFixture(name)
        var input = try fixture.keyframe()
        var generator = SystemRandomNumberGenerator()
        let payload = (0..<500).map { _ in UInt8.random(in: 0...255, using: &generator) }
        input.bytes = [0, 0, 0x01, 0xF4] + payload
        Self.expectRefusal(fixture, [input], badIndex: input.sample.index)
    }

    @Test(arguments: codecs)
    func emptySampleGivesNoPicture(_ name: String) async throws {
        let fixture = try DecoderFixture(name)
        var input = try fixture.keyframe()
        input.bytes = []
        Self.expectRefusal(fixture, [input], badIndex: input.sample.index)
    }

    @Test(arguments: codecs)
    func bitFlippedKeyframesNeverCrash(_ name: String) async throws {
        let fixture = try DecoderFixture(name)
        let clean = try fixture.keyframe()
        var generator = SplitMix64(seed: 7)
        for _ in 0..<40 {
            var input = clean
            for _ in 0..<6 {
                let index = 8 + Int(generator.next() % UInt64(input.bytes.count - 8))
                input.bytes[index] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
            }
            do {
                _ = try fixture.decodeAll([input])
            } catch {
                #expect(error.code != .decoderUnavailable)
            }
        }
    }

    /// Each codec's keyframe given to another codec's decoder.
    @Test(arguments: [("h264-faststart", "hevc-8bit"), ("hevc-8bit", "h264-faststart"), ("av1-8bit", "hevc-8bit"),
                      ("h264-faststart", "av1-8bit")])
    func keyframeOfTheOtherCodecIsRefused(decoderFixture: String, sampleFixture: String) async throws {
        let decoding = try DecoderFixture(decoderFixture)
        var input = try DecoderFixture(sampleFixture).keyframe()
        input.sample = try decoding.track.samples.sample(at: 0)
        Self.expectRefusal(decoding, [input], badIndex: input.sample.index)
    }

    @Test(arguments: codecs)
    func predictedFrameWithoutItsKeyframeIsRefused(_ name: String) async throws {
        let fixture = try DecoderFixture(name)
        // Sample 1 is a P picture that references the keyframe, which was never sent.
        let input = try fixture.input(1)
        Self.expectRefusal(fixture, [input], badIndex: 1)
    }

    @Test func missingParameterSetsAreReported() async throws {
        // An avc1 entry whose avcC has no SPS or PPS, and a keyframe that has none in band.
        let entry = SyntheticMovie.avc1Entry(sps: nil, pps: nil)
        let movie = try MovieParser.parse(fileBytes: SyntheticMovie(sampleEntry: entry).bytes())
        let track = try #require(movie.tracks.first)
        let real = try DecoderFixture("h264-faststart")
        var input = try real.keyframe()
        input.sample = try track.samples.sample(at: 0)
        let decoder = try VideoDecoderFactory.makeDecoder(for: track)
        do {
            _ = try decoder.decode(input)
            _ = try decoder.flush()
            Issue.record("decoded without parameter sets")
        } catch {
            #expect(error.code == .missingParameterSets || error.code == .decoderRejected)
        }
    }

    @Test func obuSizeBeyondTheSampleIsMalformed() async throws {
        let fixture = try DecoderFixture("av1-8bit")
        var input = try fixture.keyframe()
        // The first OBU (a temporal delimiter or the sequence header) now says it runs past the sample's end.
        input.bytes.replaceSubrange(1..<2, with: [0xFF, 0xFF, 0x03])
        let error = try #require(throws: DecodeError.self) { _ = try fixture.decodeAll([input]) }
        #expect(error.code == .malformedSample)
        #expect(error.sampleIndex == input.sample.index)
    }

    @Test func obuForbiddenBitIsMalformed() async throws {
        let fixture = try DecoderFixture("av1-8bit")
        var input = try fixture.keyframe()
        input.bytes[0] |= 0x80
        let error = try #require(throws: DecodeError.self) { _ = try fixture.decodeAll([input]) }
        #expect(error.code == .malformedSample)
        #expect(error.detail.contains("forbidden"))
    }

    @Test func truncatedFrameOBUWithAConsistentSizeIsRefused() async throws {
        // Cut the last OBU (the frame) short and rewrite its size to match: the tile data itself ends early.
        let fixture = try DecoderFixture("av1-8bit")
        var input = try fixture.keyframe()
        let last = try #require(try AV1OBU.units(in: input.bytes, name: "sample").last)
        let header = Array(input.bytes[last.range.lowerBound..<last.range.lowerBound + 1])
        input.bytes = Array(input.bytes[..<last.range.lowerBound]) + header + [16] + input.bytes[last.payload.prefix(16)]
        Self.expectRefusal(fixture, [input], badIndex: input.sample.index)
    }

    @Test func av1WithoutASequenceHeaderAnywhereIsMissingParameterSets() async throws {
        // av1C without configOBUs, and a temporal unit whose sequence header OBU is taken out.
        let entry = SyntheticMovie.av01Entry(configOBUs: [])
        let track = try #require(try MovieParser.parse(fileBytes: SyntheticMovie(sampleEntry: entry).bytes()).tracks.first)
        var input = try DecoderFixture("av1-8bit").keyframe()
        let units = try AV1OBU.units(in: input.bytes, name: "sample")
        input.bytes = units.filter { $0.type != AV1OBU.sequenceHeaderType }.flatMap { input.bytes[$0.range] }
        input.sample = try track.samples.sample(at: 0)
        let decoder = try VideoDecoderFactory.makeDecoder(for: track)
        let error = try #require(throws: DecodeError.self) { _ = try decoder.decode(input) }
        #expect(error.code == .missingParameterSets)
        #expect(error.decoder == "dav1d")
    }
}
