import Matroska
import MP4Box
import TransportStream

extension MatroskaTrack {
    /// The sample entry and the boxes in it that the track's frames decode with, as an MP4 writes them: CodecPrivate
    /// is the `avcC`, `hvcC` or `av1C` record itself; VP8 and VP9 get a `vpcC` from VP9's CodecPrivate features (its
    /// profile and bit depth, when given) and the Colour element; another codec its MP4 code (`codingFormat`: `jpeg`,
    /// `mp4v`, `mp2v`, `apch`, ...) with its CodecPrivate as an `esds` (MPEG-4 Visual) or a `glbl` box; the Video element's display size becomes a `pasp`
    /// box and its Colour a `colr` box of type `nclx`.
    /// - Throws: `MatroskaError` `unsupported` for a CodecID no MP4 code stands for, `malformed` for H.264, HEVC or AV1
    ///   without its CodecPrivate where it needs one.
    func sampleEntry() throws(MatroskaError) -> (type: FourCC, boxes: [CodedVideoTrack.EntryBox]) {
        if isEncrypted {
            throw MatroskaError(.unsupported, path: "Segment/Tracks/TrackEntry", "track \(number)'s frames are encrypted")
        }
        if let compression {
            throw MatroskaError(.unsupported, path: "Segment/Tracks/TrackEntry",
                                "track \(number)'s frames are compressed (ContentCompAlgo \(compression)); only header stripping is read")
        }
        let type: FourCC
        var boxes: [CodedVideoTrack.EntryBox]
        switch codecID {
        case "V_VP8", "V_VP9":
            type = codecID == "V_VP8" ? "vp08" : "vp09"
            boxes = [CodedVideoTrack.EntryBox(type: "vpcC", payload: vpConfiguration())]
        case "V_MPEG4/ISO/AVC", "V_MPEGH/ISO/HEVC", "V_AV1":
            let record: FourCC
            (type, record) = switch codecID {
            case "V_MPEG4/ISO/AVC": ("avc1", "avcC")
            case "V_MPEGH/ISO/HEVC": ("hvc1", "hvcC")
            default: ("av01", "av1C")
            }
            // H.264 and HEVC without CodecPrivate come as Annex B with their parameter sets in band (as Chrome's
            // MediaRecorder writes them): written from those (`codedTrack`); AV1 needs its record.
            guard !codecPrivate.isEmpty || codecID != "V_AV1" else {
                throw MatroskaError(.malformed, path: "Segment/Tracks/TrackEntry", "track \(number) (\(codecID)) has no CodecPrivate")
            }
            boxes = codecPrivate.isEmpty ? [] : [CodedVideoTrack.EntryBox(type: record, payload: codecPrivate)]
        default:
            // Another codec: its MP4 code, with CodecPrivate (after Video for Windows' BITMAPINFOHEADER) as an MPEG-4
            // Visual stream's esds or as QuickTime's glbl; whether a decoder reads it is FrameDecode's to say.
            guard let code = codingFormat else {
                throw MatroskaError(.unsupported, path: "Segment/Tracks/TrackEntry", "track \(number) is \(codecID), which no decoder here reads")
            }
            let configuration = codecID == "V_MS/VFW/FOURCC" ? Array(codecPrivate.dropFirst(40))
                : codecID == "V_PRORES" || codecID == "V_QUICKTIME" ? [] : codecPrivate
            type = code
            if code == "mp4v" {
                boxes = [CodedVideoTrack.EntryBox(type: "esds", payload: ElementaryStreamDescriptorBox.payload(
                    objectTypeIndication: 0x20, decoderSpecificInfo: configuration))]
            } else {
                boxes = configuration.isEmpty ? [] : [CodedVideoTrack.EntryBox(type: "glbl", payload: configuration)]
            }
        }
        return (type, boxes + displayBoxes)
    }

    /// The `pasp` and `colr` boxes the Video element gives: its display size and its Colour.
    var displayBoxes: [CodedVideoTrack.EntryBox] {
        var boxes: [CodedVideoTrack.EntryBox] = []
        if let aspect = video?.pixelAspect, aspect.horizontal <= UInt64(UInt32.max), aspect.vertical <= UInt64(UInt32.max) {
            var payload: [UInt8] = []
            for value in [UInt32(aspect.horizontal), UInt32(aspect.vertical)] { payload += Self.bigEndian(value) }
            boxes.append(CodedVideoTrack.EntryBox(type: "pasp", payload: payload))
        }
        if let colour = video?.colour, let payload = Self.colourPayload(colour) {
            boxes.append(CodedVideoTrack.EntryBox(type: "colr", payload: payload))
        }
        return boxes
    }

    /// A `vpcC` payload: VP9's profile and bit depth from CodecPrivate's features (ID 1 and 3, each a one-byte
    /// value) or Colour's BitsPerChannel, else profile 0 at 8 bits; 4:2:0; the Colour element's code points.
    private func vpConfiguration() -> [UInt8] {
        var profile: UInt8 = 0
        var bitDepth = Int(video?.colour?.bitsPerChannel ?? 0)
        var position = codecPrivate.startIndex
        while position + 1 < codecPrivate.endIndex {
            let (id, length) = (codecPrivate[position], Int(codecPrivate[position + 1]))
            guard position + 2 + length <= codecPrivate.endIndex else { break }
            if length == 1, id == 1 { profile = codecPrivate[position + 2] }
            if length == 1, id == 3 { bitDepth = Int(codecPrivate[position + 2]) }
            position += 2 + length
        }
        let colour = video?.colour
        let description = ColourDescription(primaries: Int(clamping: colour?.primaries ?? 2), transfer: Int(clamping: colour?.transferCharacteristics ?? 2),
                                            matrix: Int(clamping: colour?.matrixCoefficients ?? 2), fullRange: colour?.range == 2)
        return VPCodecConfigurationBox.payload(profile: profile, bitDepth: [10, 12].contains(bitDepth) ? bitDepth : 8,
                                               chromaSubsampling: 1, colour: description)
    }

    /// An `nclx` colr payload, when the Colour element says more than "unspecified".
    private static func colourPayload(_ colour: MatroskaVideo.Colour) -> [UInt8]? {
        let values = [colour.primaries, colour.transferCharacteristics, colour.matrixCoefficients]
        guard values.contains(where: { $0 != 2 }) || colour.range == 1 || colour.range == 2,
              values.allSatisfy({ $0 <= UInt64(UInt16.max) }) else { return nil }
        var payload = Array("nclx".utf8)
        for value in values { payload += [UInt8(value >> 8), UInt8(truncatingIfNeeded: value)] }
        payload.append(colour.range == 2 ? 0x80 : 0)
        return payload
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}

extension MatroskaFile {
    /// The timescale a movie of this file's frames is written in: ticks of one timestamp unit where a second holds a
    /// whole number of them (1,000 for the usual millisecond), else microseconds.
    var movieTimescale: UInt32 {
        let second: UInt64 = 1_000_000_000
        if second % timestampScale == 0, second / timestampScale <= UInt64(UInt32.max) { return UInt32(second / timestampScale) }
        return 1_000_000
    }

    /// `timestamp` (in timestamp units) in ticks of `movieTimescale`.
    func movieTicks(_ timestamp: Int64) -> Int64 {
        let timescale = movieTimescale
        if UInt64(timescale) * timestampScale == 1_000_000_000 { return timestamp }
        return nanoseconds(timestamp) / 1000
    }

    /// `frames` (in decoding order, from a keyframe) as a movie's track: presentation times are the blocks'
    /// timestamps; decoding times, which Matroska does not store, are those timestamps in order, moved back by as much
    /// as any frame is shown before its turn so that none decodes after it is shown.
    /// - Throws: `MatroskaError` as `MatroskaTrack.sampleEntry()`.
    /// H.264 or HEVC frames in Annex B without CodecPrivate (start codes, the parameter sets in band, as Chrome's
    /// MediaRecorder writes them) are split into NAL units and written as `avc3`/`hev1` with the keyframe's parameter
    /// sets.
    /// VP8 and VP9 frames with alpha planes (BlockAdditions) carry them as the track's `alpha`.
    /// - Throws: `MatroskaError` as `MatroskaTrack.sampleEntry()`; `MP4Error` for Annex B frames without a sequence
    ///   parameter set before the first picture.
    func codedTrack(_ frames: ArraySlice<MatroskaFrame>, of track: MatroskaTrack, lastFrameDuration: Int64?) throws -> CodedVideoTrack {
        let (entry, boxes) = try track.sampleEntry()
        let presentation = frames.map { movieTicks($0.timestamp) }
        let ordered = presentation.sorted()
        let delay = zip(ordered, presentation).map { $0 &- $1 }.max().map { max(0, $0) } ?? 0
        let times = zip(ordered, presentation).map { (decode: $0 &- delay, presentation: $1) }
        let isNALCoded = entry == "avc1" || entry == "hvc1"
        // Only without CodecPrivate: behind 4-byte lengths, a NAL unit of 256 to 511 bytes also starts 00 00 01.
        if isNALCoded, track.codecPrivate.isEmpty, frames.first.map({ AnnexBNALUnits.startsWithStartCode($0.data) }) == true {
            let coding: ElementaryVideoTrack.Coding = entry == "avc1" ? .h264 : .hevc
            let units = frames.map { AnnexBNALUnits.split($0.data[...]).map(Array.init) }
            let parameterTypes: Set<UInt8> = coding == .h264 ? [7, 8] : [32, 33, 34]
            let elementary = ElementaryVideoTrack(
                coding: coding, timescale: movieTimescale,
                parameterSets: (units.first ?? []).filter { unit in unit.first.map { parameterTypes.contains(coding == .h264 ? $0 & 0x1F : ($0 >> 1) & 0x3F) } ?? false },
                samples: zip(frames, zip(units, times)).map { frame, coded in
                    ElementaryVideoTrack.Sample(decodeTime: coded.1.decode, presentationTime: coded.1.presentation, isSync: frame.isKeyframe,
                                                nalUnits: coded.0)
                },
                lastSampleDuration: lastFrameDuration)
            var coded = try VideoMovieWriter.codedTrack(of: elementary)
            coded.entryBoxes += track.displayBoxes
            return coded
        }
        let samples = zip(frames, times).map { frame, time in
            CodedVideoTrack.Sample(decodeTime: time.decode, presentationTime: time.presentation, isSync: frame.isKeyframe, data: frame.data)
        }
        var coded = CodedVideoTrack(sampleEntry: entry, entryBoxes: boxes, width: UInt32(clamping: track.video?.pixelWidth ?? 0),
                                    height: UInt32(clamping: track.video?.pixelHeight ?? 0), timescale: movieTimescale,
                                    samples: samples, lastSampleDuration: lastFrameDuration)
        // The alpha planes (VP8, VP9), where every frame from the keyframe has one: they are decoded frame by frame
        // like the pictures, so one missing would leave the next ones without their reference.
        let alpha = frames.compactMap(\.alpha)
        if (entry == "vp08" || entry == "vp09"), !alpha.isEmpty, alpha.count == frames.count {
            coded.alpha = alpha
        }
        return coded
    }
}
