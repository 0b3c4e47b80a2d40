import Foundation
import FrameDecode
import Matroska
import MP4Box
import MP4BoxTestSupport
import Testing

/// VP8, which no MP4 fixture holds: every frame of the WebM fixture, read by the Matroska reader and written as a
/// `vp08` movie, decoded by libvpx against ffmpeg's digests (its native VP8 decoder is bit-exact with libvpx).
@Suite struct VP8DecodeTests {
    @Test func everyFrameMatchesFFmpeg() throws {
        let reference = try #require(MatroskaReferences.all.first { $0.name == "vp8.cues-back.webm" })
        let file = MemoryFile(try reference.bytes())
        let length = UInt64(try reference.bytes().count)
        let located = try MatroskaLocator().run { (file.answer(to: $0), length) }
        let track = try #require(located.file.pictureTrack)
        let start = try #require(located.file.firstClusterOffset)
        var reader = MatroskaClusterReader(track: track, timestampScale: located.file.timestampScale, start: start)
        try reader.append(file.bytes(in: start ..< length)[...])
        let samples = reader.frames.map {
            CodedVideoTrack.Sample(decodeTime: $0.timestamp, presentationTime: $0.timestamp, isSync: $0.isKeyframe, data: $0.data)
        }
        let payload = VPCodecConfigurationBox.payload(profile: 0, bitDepth: 8, chromaSubsampling: 1, colour: .unspecified)
        let movie = try VideoMovieWriter.movie(of: CodedVideoTrack(
            sampleEntry: "vp08", entryBoxes: [CodedVideoTrack.EntryBox(type: "vpcC", payload: payload)],
            width: UInt32(reference.width), height: UInt32(reference.height), timescale: 1000, samples: samples))
        let fixture = try DecoderFixture(movie: movie, name: reference.name)
        let digests = try WholeStreamDecodeTests.frameDigests(at: MatroskaReferences.folder.appendingPathComponent("vp8.cues-back.framemd5"))
        let frames = try fixture.decodeAll(try (0 ..< fixture.track.samples.count).map(fixture.input))
        #expect(frames.count == digests.count)
        for frame in frames {
            let pts = fixture.track.presentationTime(of: try fixture.track.samples.sample(at: frame.sampleIndex))
            #expect(MD5.hex(frame.rawVideoBytes()) == digests[pts], "frame at \(pts) ms")
        }
    }
}
