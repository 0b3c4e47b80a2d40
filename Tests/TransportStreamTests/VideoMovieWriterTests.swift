import Foundation
import MP4Box
import MP4BoxTestSupport
import Testing
import TransportStream

/// Movies written from demuxed MPEG-TS video, read back by MP4Box and held against the MP4 fixtures the streams were
/// cut from (`Fixtures/streams/make-ffmpeg-streams.sh`): the same pictures, times, keyframes and parameter sets.
struct VideoMovieWriterTests {
    static func demuxed(_ file: String) throws -> TransportStreamDemuxer {
        let url = Fixtures.directory.appendingPathComponent("streams").appendingPathComponent(file)
        var demuxer = TransportStreamDemuxer()
        try demuxer.append([UInt8](try Data(contentsOf: url)))
        try demuxer.finish()
        return demuxer
    }

    static func track(of demuxer: TransportStreamDemuxer) throws -> ElementaryVideoTrack {
        let codec = try #require(demuxer.video?.codec)
        return ElementaryVideoTrack(
            coding: codec == .h264 ? .h264 : .hevc, timescale: 90_000,
            parameterSets: codec.parameterSets(in: demuxer.accessUnits),
            samples: demuxer.accessUnits.map {
                .init(decodeTime: $0.decodeTime, presentationTime: $0.presentationTime, isSync: $0.isKeyframe, nalUnits: $0.nalUnits,
                      isDisposable: $0.isDisposable)
            })
    }

    static func videoTrack(_ bytes: [UInt8]) throws -> MovieTrack {
        try #require(try MovieLocator().locate(in: MemoryFile(bytes)).movie.primaryVideoTrack)
    }

    @Test(arguments: [("ffmpeg-ts-timestamp-wrap/wrap.ts", "h264-bframes"),
                      ("ffmpeg-hls-ts-hevc-single-file/index.ts", "hevc-8bit")])
    func theWrittenMovieHasTheSourcesPicturesTimesAndKeyframes(_ file: String, _ source: String) throws {
        let demuxer = try Self.demuxed(file)
        let written = try Self.videoTrack(try VideoMovieWriter.movie(of: try Self.track(of: demuxer)))
        let original = try Self.videoTrack(try Fixtures.bytes(source))
        #expect(written.samples.count == original.samples.count)
        #expect(written.timescale == 90_000)
        #expect(written.samples.syncSampleCount == original.samples.syncSampleCount)
        let firstWritten = try written.samples.sample(at: 0)
        let firstOriginal = try original.samples.sample(at: 0)
        for index in 0 ..< min(written.samples.count, original.samples.count) {
            let a = try written.samples.sample(at: index)
            let b = try original.samples.sample(at: index)
            #expect(a.isSync == b.isSync, "sample \(index)")
            // Times from the first sample's decoding time: 90 kHz ticks against the source's timescale.
            let scale = Int64(original.timescale)
            #expect((a.compositionTime - firstWritten.decodeTime) * scale == (b.compositionTime - firstOriginal.decodeTime) * 90_000,
                    "sample \(index)")
            #expect((a.decodeTime - firstWritten.decodeTime) * scale == (b.decodeTime - firstOriginal.decodeTime) * 90_000,
                    "sample \(index)")
        }
        // The pictures no other refers to, as the bitstream says (H.264 nal_ref_idc, HEVC _N types), are the ones the
        // source's sdtp marks, where it has one.
        var disposable = 0
        for index in 0 ..< min(written.samples.count, original.samples.count) {
            if written.samples.dependency(of: index)?.isDisposable == true { disposable += 1 }
            guard let expected = original.samples.dependency(of: index) else { continue }
            #expect(written.samples.dependency(of: index)?.isDisposable ?? false == expected.isDisposable, "sample \(index)")
        }
        if source == "hevc-8bit" { #expect(disposable > 0) }
        // The size the sample entry states is the picture's.
        #expect(written.visualEntry?.width == original.visualEntry?.width)
        #expect(written.visualEntry?.height == original.visualEntry?.height)
    }

    @Test func theAVCConfigurationHoldsTheSourcesParameterSets() throws {
        let written = try Self.videoTrack(try VideoMovieWriter.movie(of: try Self.track(of: Self.demuxed("ffmpeg-ts-timestamp-wrap/wrap.ts"))))
        let original = try Self.videoTrack(try Fixtures.bytes("h264-bframes"))
        let a = try #require(written.visualEntry?.avcConfiguration)
        let b = try #require(original.visualEntry?.avcConfiguration)
        #expect(written.visualEntry?.header.type == "avc3")
        #expect(a.sequenceParameterSets == b.sequenceParameterSets)
        #expect(a.pictureParameterSets == b.pictureParameterSets)
        #expect(a.profileIndication == b.profileIndication)
        #expect(a.profileCompatibility == b.profileCompatibility)
        #expect(a.levelIndication == b.levelIndication)
        #expect(a.nalUnitLengthSize == 4)
        #expect(a.chromaFormat == b.chromaFormat)
        #expect(a.bitDepthLuma == b.bitDepthLuma)
    }

    @Test func theHEVCConfigurationHoldsTheSourcesProfileAndParameterSets() throws {
        let written = try Self.videoTrack(try VideoMovieWriter.movie(of: try Self.track(of: Self.demuxed("ffmpeg-hls-ts-hevc-single-file/index.ts"))))
        let original = try Self.videoTrack(try Fixtures.bytes("hevc-8bit"))
        let a = try #require(written.visualEntry?.hevcConfiguration)
        let b = try #require(original.visualEntry?.hevcConfiguration)
        #expect(written.visualEntry?.header.type == "hev1")
        for type: UInt8 in [32, 33, 34] { #expect(a.nalUnits(ofType: type) == b.nalUnits(ofType: type), "NAL type \(type)") }
        #expect(a.generalProfileIDC == b.generalProfileIDC)
        #expect(a.generalTierFlag == b.generalTierFlag)
        #expect(a.generalLevelIDC == b.generalLevelIDC)
        #expect(a.chromaFormat == b.chromaFormat)
        #expect(a.bitDepthLuma == b.bitDepthLuma)
        #expect(a.bitDepthChroma == b.bitDepthChroma)
    }

    @Test func aTrackWithoutASequenceParameterSetOrWithTimesGoingBackIsRefused() throws {
        let picture: [[UInt8]] = [[0x65, 0x88, 0x84, 0x21]]
        var track = ElementaryVideoTrack(coding: .h264, timescale: 90_000, parameterSets: [],
                                         samples: [.init(decodeTime: 0, presentationTime: 0, isSync: true, nalUnits: picture)])
        let noSPS = try #require(throws: MP4Error.self) { _ = try VideoMovieWriter.movie(of: track) }
        #expect(noSPS.detail == "no sequence parameter set before the first picture")
        track = try Self.track(of: Self.demuxed("ffmpeg-ts-timestamp-wrap/wrap.ts"))
        track.samples[3].decodeTime = track.samples[1].decodeTime - 1
        let backwards = try #require(throws: MP4Error.self) { _ = try VideoMovieWriter.movie(of: track) }
        #expect(backwards.code == .malformed)
        track.samples = []
        #expect(throws: MP4Error.self) { _ = try VideoMovieWriter.movie(of: track) }
    }
}
