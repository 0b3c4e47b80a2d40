import FrameDecode
import MP4Box
import MP4BoxTestSupport
import Testing

/// `reset()` leaves a decoder as if new: nothing of the stream before it (held pictures, references, parameter sets
/// sent) reaches what is decoded after it.
@Suite struct DecoderResetTests {
    /// One stream per decoder (openh264, libde265, dav1d), each decoded by ffmpeg exactly like ours.
    static let streams = ["h264-p-only", "hevc-8bit", "av1-8bit"]

    /// Half of the first group of pictures is decoded and not flushed, so the decoder holds references and perhaps
    /// pictures; after `reset()` the second group decodes as a new decoder decodes it, each picture as ffmpeg does, and
    /// nothing of the first group comes out.
    @Test(arguments: streams)
    func afterAResetTheNextGroupDecodesAsFromANewDecoder(_ name: String) async throws {
        let fixture = try DecoderFixture(name)
        let digests = try WholeStreamDecodeTests.frameDigests(name)
        let samples = fixture.track.samples
        try #require(samples.syncSampleCount >= 3, "\(name) needs three groups of pictures")
        let second = samples.sampleIndex(ofSyncSample: 1)
        let third = samples.sampleIndex(ofSyncSample: 2)
        let decoder = try VideoDecoderFactory.makeDecoder(for: fixture.track)
        for index in 0..<(second / 2) { _ = try decoder.decode(try fixture.input(index)) }

        try decoder.reset()
        var inputs: [DecoderInput] = []
        for index in second..<third { inputs.append(try fixture.input(index)) }
        var frames: [DecodedFrame] = []
        for input in inputs { frames += try decoder.decode(input) }
        frames += try decoder.flush()

        // A new decoder starting at this sync sample gives the same pictures (HEVC's open groups drop the leading
        // pictures that refer to the group before: RASL pictures after a CRA that starts the decoding).
        let fresh = try fixture.decodeAll(inputs)
        #expect(!fresh.isEmpty)
        #expect(frames.map(\.sampleIndex) == fresh.map(\.sampleIndex), "\(name): pictures of samples \(frames.map(\.sampleIndex))")
        for frame in frames {
            let pts = fixture.track.presentationTime(of: try samples.sample(at: frame.sampleIndex))
            #expect(MD5.hex(frame.rawVideoBytes()) == digests[pts], "\(name) frame at pts \(pts)")
        }
    }

    /// Pictures held for reordering when `reset()` comes are dropped: a flush right after it gives none.
    @Test(arguments: streams + ["h264-bframes"])
    func aResetDropsThePicturesHeldForReordering(_ name: String) async throws {
        let fixture = try DecoderFixture(name)
        let samples = fixture.track.samples
        let decoder = try VideoDecoderFactory.makeDecoder(for: fixture.track)
        var decoded = 0
        for index in 0..<(samples.sampleIndex(ofSyncSample: 1) / 2) { decoded += try decoder.decode(try fixture.input(index)).count }

        try decoder.reset()
        #expect(try decoder.flush().isEmpty, "\(name): \(decoded) pictures came out before the reset")
    }

    /// A sample that refers to earlier pictures, given first after a reset, has nothing to refer to: it is refused or
    /// gives no picture, never one built on the pictures decoded before the reset.
    @Test(arguments: streams)
    func afterAResetAPictureThatNeedsReferencesIsNotBuiltOnTheOldOnes(_ name: String) async throws {
        let fixture = try DecoderFixture(name)
        let digests = try WholeStreamDecodeTests.frameDigests(name)
        let samples = fixture.track.samples
        let decoder = try VideoDecoderFactory.makeDecoder(for: fixture.track)
        let predicted = try #require(try (1..<samples.count).first { try !samples.sample(at: $0).isSync })
        for index in 0..<predicted { _ = try decoder.decode(try fixture.input(index)) }

        try decoder.reset()
        let input = try fixture.input(predicted)
        let frames: [DecodedFrame]
        do {
            frames = try decoder.decode(input) + decoder.flush()
        } catch {
            #expect(error.sampleIndex == predicted || error.sampleIndex == nil, "\(name): \(error)")
            return  // refused: nothing to refer to
        }
        let pts = fixture.track.presentationTime(of: try samples.sample(at: predicted))
        for frame in frames {
            #expect(MD5.hex(frame.rawVideoBytes()) != digests[pts], "\(name): sample \(predicted) decoded from references decoded before the reset")
        }
    }
}
