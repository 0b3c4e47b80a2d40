import MP4Box
import TransportStream

/// The movie a transport stream's access units are written as, for the one decoding path: H.264 and HEVC as an
/// `avc3`/`hev1` track of their NAL units (`ElementaryVideoTrack`); MPEG-2 video as an `mp2v` track of the stream's
/// own bytes, its sequence header and extension as the entry's `glbl` (as QuickTime writes it) and its aspect ratio
/// as a `pasp`; MPEG-4 Part 2 as an `mp4v` track of the stream's bytes, its headers up to the video object layer as
/// its `esds`'s decoder configuration (as an MP4 holds it), its size and pixel aspect from that layer.
enum TransportVideoMovie {
    /// The movie of `units` (decoding order, a keyframe first) of a stream coded as `codec`, decoded with
    /// `parameterSets`; the last lasts `lastSampleDuration` ticks of 90 kHz (nil: as long as the one before).
    /// - Throws: `MP4Error` for what the movie cannot be written from (no sequence header or SPS, times that go back).
    static func bytes(of units: ArraySlice<TransportAccessUnit>, codec: TransportVideoCodec, parameterSets: [[UInt8]],
                      lastSampleDuration: Int64?) throws(MP4Error) -> [UInt8] {
        switch codec {
        case .h264, .hevc:
            return try VideoMovieWriter.movie(of: ElementaryVideoTrack(
                coding: codec == .h264 ? .h264 : .hevc, timescale: 90_000, parameterSets: parameterSets,
                samples: units.map {
                    ElementaryVideoTrack.Sample(decodeTime: $0.decodeTime, presentationTime: $0.presentationTime,
                                                isSync: $0.isKeyframe, nalUnits: $0.nalUnits, isDisposable: $0.isDisposable)
                },
                lastSampleDuration: lastSampleDuration))
        case .mpeg2, .mpeg4Visual:
            let entry: FourCC
            var boxes: [CodedVideoTrack.EntryBox]
            let size: (width: Int, height: Int)
            let aspect: VideoPixelAspect?
            if codec == .mpeg2 {
                guard let header = parameterSets.first, let sequence = MPEG2VideoHeaders.Sequence(header) else {
                    throw MP4Error(.malformed, path: "", offset: 0, "no MPEG-2 sequence header before the first picture")
                }
                entry = "mp2v"
                boxes = [CodedVideoTrack.EntryBox(type: "glbl", payload: withStartCodes(parameterSets))]
                (size, aspect) = ((sequence.width, sequence.height), sequence.pixelAspect)
            } else {
                guard let layer = parameterSets.lazy.compactMap(MPEG4VisualHeaders.ObjectLayer.init).first else {
                    throw MP4Error(.malformed, path: "", offset: 0, "no MPEG-4 video object layer header that reads before the first picture")
                }
                entry = "mp4v"
                boxes = [CodedVideoTrack.EntryBox(type: "esds", payload: ElementaryStreamDescriptorBox.payload(
                    objectTypeIndication: 0x20, decoderSpecificInfo: withStartCodes(parameterSets)))]
                (size, aspect) = ((layer.width, layer.height), layer.pixelAspect)
            }
            if let aspect {
                boxes.append(CodedVideoTrack.EntryBox(type: "pasp", payload: bigEndian(aspect.horizontal) + bigEndian(aspect.vertical)))
            }
            return try VideoMovieWriter.movie(of: CodedVideoTrack(
                sampleEntry: entry, entryBoxes: boxes, width: UInt32(size.width), height: UInt32(size.height),
                timescale: 90_000,
                samples: units.map {
                    CodedVideoTrack.Sample(decodeTime: $0.decodeTime, presentationTime: $0.presentationTime, isSync: $0.isKeyframe,
                                           isDisposable: $0.isDisposable, data: withStartCodes($0.nalUnits))
                },
                lastSampleDuration: lastSampleDuration))
        }
    }

    /// `units` each after a start code prefix, as the stream had them.
    private static func withStartCodes(_ units: [[UInt8]]) -> [UInt8] {
        units.flatMap { [0, 0, 1] + $0 }
    }

    private static func bigEndian(_ value: Int) -> [UInt8] {
        let clamped = UInt32(clamping: value)
        return [UInt8(clamped >> 24), UInt8(clamped >> 16 & 0xFF), UInt8(clamped >> 8 & 0xFF), UInt8(clamped & 0xFF)]
    }
}
