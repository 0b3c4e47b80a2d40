import Foundation
import FrameDecode
import MP4Box
import MP4BoxTestSupport
import Testing

/// Every frame of a fixture, decoded in one pass, against ffmpeg's framemd5 of the same stream.
@Suite struct WholeStreamDecodeTests {
    /// ffmpeg's per-frame digests by presentation time (Fixtures/frames/<name>.framemd5).
    static func frameDigests(_ name: String) throws -> [Int64: String] {
        try frameDigests(at: Fixtures.directory.appendingPathComponent("frames/\(name).framemd5"))
    }

    /// The per-frame digests of an ffmpeg framemd5 listing, by presentation time.
    static func frameDigests(at url: URL) throws -> [Int64: String] {
        let text = try String(contentsOf: url, encoding: .utf8)
        var digests: [Int64: String] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 6, let pts = Int64(fields[2]) else { continue }
            digests[pts] = fields[5]
        }
        return digests
    }

    /// Streams that openh264, libde265, dav1d and libvpx decode exactly like ffmpeg, frame for frame: all HEVC, AV1
    /// (ffmpeg decodes AV1 with libdav1d too) and VP9 (ffmpeg's own decoder is bit-exact with libvpx), and H.264
    /// without B-frames.
    static let exactStreams = ["hevc-8bit", "hevc-main10", "hevc-hev1", "hevc-hlg", "hevc-pq", "h264-p-only", "one-frame",
                               "av1-8bit", "av1-10bit", "vp9-8bit", "vp9-10bit", "h264-repeated-references", "pasp-narrow"]

    /// H.264 streams with B-frames: openh264 2.3.1 deviates from the standard on some B-frames (and on
    /// P-frames that follow B-pyramid references), so every sync sample is compared here and the
    /// chosen B-frames by PSNR in BitExactDecodeTests.
    static let keyframeOnlyStreams = FrameReferences.names.filter { !exactStreams.contains($0) }

    @Test(arguments: exactStreams)
    func everyFrameMatchesFFmpeg(_ name: String) async throws {
        let fixture = try DecoderFixture(name)
        let digests = try Self.frameDigests(name)
        var inputs: [DecoderInput] = []
        for index in 0..<fixture.track.samples.count { inputs.append(try fixture.input(index)) }
        let frames = try fixture.decodeAll(inputs)
        #expect(frames.count == digests.count, "\(name): \(frames.count) pictures, ffmpeg \(digests.count)")
        var previous = Int64.min
        for frame in frames {
            let sample = try fixture.track.samples.sample(at: frame.sampleIndex)
            let pts = fixture.track.presentationTime(of: sample)
            #expect(pts > previous, "\(name): pictures out of presentation order at \(pts)")
            previous = pts
            #expect(MD5.hex(frame.rawVideoBytes()) == digests[pts], "\(name) frame at pts \(pts)")
        }
    }

    @Test(arguments: keyframeOnlyStreams)
    func everySyncSampleMatchesFFmpeg(_ name: String) async throws {
        let fixture = try DecoderFixture(name)
        let digests = try Self.frameDigests(name)
        for position in 0..<fixture.track.samples.syncSampleCount {
            let input = try fixture.input(fixture.track.samples.sampleIndex(ofSyncSample: position))
            let frames = try fixture.decodeAll([input])
            let pts = fixture.track.presentationTime(of: input.sample)
            #expect(frames.count == 1)
            #expect(frames.first.map { MD5.hex($0.rawVideoBytes()) } == digests[pts], "\(name) keyframe at pts \(pts)")
        }
    }

    /// A decoder made for keyframes alone (openh264 told the stream has no reference frames, to size its picture
    /// pool) gives every sync sample as ffmpeg decodes it.
    @Test(arguments: FrameReferences.names)
    func everySyncSampleDecodedByADecoderForKeyframesMatchesFFmpeg(_ name: String) async throws {
        let fixture = try DecoderFixture(name)
        let digests = try Self.frameDigests(name)
        for position in 0..<fixture.track.samples.syncSampleCount {
            let input = try fixture.input(fixture.track.samples.sampleIndex(ofSyncSample: position))
            let frames = try fixture.decodeAll([input], keyframesOnly: true)
            let pts = fixture.track.presentationTime(of: input.sample)
            #expect(frames.count == 1)
            #expect(frames.first.map { MD5.hex($0.rawVideoBytes()) } == digests[pts], "\(name) keyframe at pts \(pts)")
        }
    }

    @Test func aDecoderForKeyframesRefusesAnotherSample() async throws {
        let fixture = try DecoderFixture("h264-bframes")
        let decoder = try VideoDecoderFactory.makeDecoder(for: fixture.track, keyframesOnly: true)
        let other = try #require(try (0..<fixture.track.samples.count).first { try !fixture.track.samples.sample(at: $0).isSync })
        let error = try #require(throws: DecodeError.self) { _ = try decoder.decode(try fixture.input(other)) }
        #expect(error.code == .unsupportedFeature)
        #expect(error.sampleIndex == other)
    }
}

/// A stream whose P slices use 8 reference list entries from an SPS that keeps 4 pictures (ITU-T H.264 allows it:
/// Fixtures/h264_repeated_references.py). openh264 keeps max_num_ref_frames + 2 pictures and cannot build the list.
@Suite struct RepeatedReferenceTests {
    @Test func theDecoderAsksToStartAgainWithRoomForTheList() async throws {
        let fixture = try DecoderFixture("h264-repeated-references")
        let decoder = try VideoDecoderFactory.makeDecoder(for: fixture.track)
        for index in 0..<4 { _ = try decoder.decode(try fixture.input(index)) }
        let input = try fixture.input(4)
        #expect { try decoder.decode(input) } throws: { error in
            guard let error = error as? DecodeError else { return false }
            return error.code == .restartFromKeyframe && error.sampleIndex == 4 && error.decoder == "openh264"
                && error.detail.contains("8 reference list entries") && error.detail.contains("keep 6")
        }
        #expect((decoder as? OpenH264Decoder)?.widenedMaxNumRefFrames == 6)
        // After a reset the decoder keeps room for it: from the keyframe, every picture is ffmpeg's.
        try decoder.reset()
        let digests = try WholeStreamDecodeTests.frameDigests("h264-repeated-references")
        for index in 0..<fixture.track.samples.count {
            let input = try fixture.input(index)
            for frame in try decoder.decode(input) {
                let pts = fixture.track.presentationTime(of: try fixture.track.samples.sample(at: frame.sampleIndex))
                #expect(MD5.hex(frame.rawVideoBytes()) == digests[pts], "frame at \(pts)")
            }
        }
    }
}
