import Testing
@testable import TransportStream

/// The demuxer on streams written by `TransportStreamBuilder`: the cases real files do not show.
struct TransportStreamDemuxerTests {
    static let videoPID: UInt16 = 0x100
    static let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x1E, 0xDA, 0x02, 0x80]
    static let pps: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]
    static let idr: [UInt8] = [0x65, 0x88, 0x84] + [UInt8](repeating: 0x21, count: 400)
    static let slice: [UInt8] = [0x41, 0x9A, 0x02] + [UInt8](repeating: 0x37, count: 90)

    static func demuxed(_ bytes: [UInt8], chunk: Int = 1000,
                        limits: TransportStreamLimits = TransportStreamLimits()) throws -> TransportStreamDemuxer {
        var demuxer = TransportStreamDemuxer(limits: limits)
        var start = 0
        while start < bytes.count {
            try demuxer.append(bytes[start ..< min(start + chunk, bytes.count)])
            start += chunk
        }
        try demuxer.finish()
        return demuxer
    }

    /// A stream of an IDR picture and two more, with the tables first.
    static func threePictures(declaresLength: Bool = false) -> TransportStreamBuilder {
        var builder = TransportStreamBuilder()
        builder.tables([(0x0F, 0x101), (0x1B, videoPID)])
        builder.pes(pid: videoPID, presentation: 1000, decoding: 900, payload: AnnexB.units([sps, pps, idr]),
                    declaresLength: declaresLength, randomAccess: true)
        builder.pes(pid: 0x101, presentation: 950, payload: [0xFF, 0xF1, 0x50, 0x80])
        builder.pes(pid: videoPID, presentation: 4000, decoding: 3900, payload: AnnexB.units([slice]), declaresLength: declaresLength)
        builder.pes(pid: videoPID, presentation: 7000, decoding: 6900, payload: AnnexB.units([slice]), declaresLength: declaresLength)
        return builder
    }

    @Test(arguments: [1, 187, 188, 1000, 100_000])
    func accessUnitsComeOutWhateverTheChunks(_ chunk: Int) throws {
        let demuxer = try Self.demuxed(Self.threePictures().bytes, chunk: chunk)
        #expect(demuxer.video == TransportStreamDemuxer.VideoStream(pid: Self.videoPID, codec: .h264, streamType: 0x1B))
        #expect(demuxer.accessUnits.map(\.presentationTime) == [1000, 4000, 7000])
        #expect(demuxer.accessUnits.map(\.decodeTime) == [900, 3900, 6900])
        #expect(demuxer.accessUnits.map(\.isKeyframe) == [true, false, false])
        #expect(demuxer.accessUnits[0].nalUnits == [Self.sps, Self.pps, Self.idr])
        #expect(demuxer.accessUnits[1].nalUnits == [Self.slice])
        // The tables take two packets; the IDR's PES starts in the third.
        #expect(demuxer.accessUnits[0].byteRange.lowerBound == 2 * 188)
    }

    @Test func anAccessUnitIsWholeOnceTheNextTimedPESStarts() throws {
        let bytes = Self.threePictures().bytes
        var demuxer = TransportStreamDemuxer()
        // Up to the first packet of the second video PES (tables 2, IDR 3, audio 1, then the second video PES).
        try demuxer.append(bytes[..<(6 * 188)])
        #expect(demuxer.accessUnits.count == 0)
        #expect(demuxer.completeAccessUnits.isEmpty)
        try demuxer.append(bytes[(6 * 188) ..< (7 * 188)])
        #expect(demuxer.accessUnits.count == 1)
        #expect(demuxer.completeAccessUnits.count == 1)
        #expect(demuxer.completeAccessUnits.first?.isKeyframe == true)
    }

    @Test func aDeclaredLengthCompletesThePESWithoutWaiting() throws {
        let bytes = Self.threePictures(declaresLength: true).bytes
        var demuxer = TransportStreamDemuxer()
        try demuxer.append(bytes[..<(5 * 188)])  // the tables and the three packets of the IDR's PES
        #expect(demuxer.accessUnits.count == 1)
        // Still open: an untimed PES could continue it.
        #expect(demuxer.completeAccessUnits.isEmpty)
    }

    @Test func anUntimedPESContinuesTheAccessUnitBefore() throws {
        var builder = TransportStreamBuilder()
        builder.tables([(0x1B, Self.videoPID)])
        builder.pes(pid: Self.videoPID, presentation: 1000, payload: AnnexB.units([Self.sps, Self.pps]))
        builder.pes(pid: Self.videoPID, presentation: nil, payload: AnnexB.units([Self.idr]))
        builder.pes(pid: Self.videoPID, presentation: 4000, payload: AnnexB.units([Self.slice]))
        let demuxer = try Self.demuxed(builder.bytes)
        #expect(demuxer.accessUnits.count == 2)
        #expect(demuxer.accessUnits[0].nalUnits == [Self.sps, Self.pps, Self.idr])
        #expect(demuxer.accessUnits[0].isKeyframe)
        #expect(demuxer.accessUnits[0].decodeTime == 1000)
    }

    @Test func timestampsThatWrapKeepIncreasing() throws {
        var builder = TransportStreamBuilder()
        builder.tables([(0x1B, Self.videoPID)])
        let wrap: Int64 = 1 << 33
        for (index, time) in [wrap - 6000, wrap - 3000, 0, 3000].enumerated() {
            builder.pes(pid: Self.videoPID, presentation: time, payload: AnnexB.units(index == 0 ? [Self.sps, Self.pps, Self.idr] : [Self.slice]))
        }
        let demuxer = try Self.demuxed(builder.bytes)
        #expect(demuxer.accessUnits.map(\.presentationTime) == [wrap - 6000, wrap - 3000, wrap, wrap + 3000])
    }

    @Test func unwrappingTakesTheNearestValueEitherWay() {
        var unwrapper = TimestampUnwrapper()
        let period = TimestampUnwrapper.period
        #expect(unwrapper.unwrap(100) == 100)
        #expect(unwrapper.unwrap(period - 100) == -100)  // back across zero
        #expect(unwrapper.unwrap(50) == 50)
        #expect(unwrapper.unwrap(period / 2 + 40) == period / 2 + 40)  // less than half a period on
        #expect(unwrapper.unwrap(10) == period + 10)  // and on again, past the wrap
        #expect(unwrapper.unwrap(period / 2 + 20) == period / 2 + 20)  // back again
    }

    @Test func anHEVCStreamIsNamedByStreamTypeOrRegistration() throws {
        for (type, registration) in [(UInt8(0x24), false), (0x06, true)] {
            var builder = TransportStreamBuilder()
            var map = TransportStreamBuilder.programMap([(type, Self.videoPID)])
            if registration {
                // ES_info of a registration descriptor "HEVC": rebuilt with its length and a new CRC.
                var body = Array(map.dropLast(4))
                body[body.count - 2] = 0xF0
                body[body.count - 1] = 6
                body += [0x05, 0x04, 0x48, 0x45, 0x56, 0x43]
                let length = body.count - 3 + 4
                body[1] = 0xB0 | UInt8(length >> 8)
                body[2] = UInt8(length & 0xFF)
                map = TransportStreamBuilder.withCRC(body)
            }
            builder.section(pid: 0, TransportStreamBuilder.programAssociation(mapPID: 0x1000))
            builder.section(pid: 0x1000, map)
            // VPS, SPS, PPS and a CRA picture (type 21).
            let units: [[UInt8]] = [[0x40, 0x01, 0x0C], [0x42, 0x01, 0x01], [0x44, 0x01, 0xC0], [0x2A, 0x01, 0xAF, 0x33]]
            builder.pes(pid: Self.videoPID, presentation: 0, payload: AnnexB.units(units))
            let demuxer = try Self.demuxed(builder.bytes)
            #expect(demuxer.video?.codec == .hevc)
            #expect(demuxer.accessUnits.first?.isKeyframe == true)
        }
    }

    @Test func aRecoveryPointMakesAnH264PictureAKeyframe() throws {
        let recovery: [UInt8] = [0x06, 0x06, 0x01, 0xC4, 0x80]  // SEI: payload type 6, size 1
        let otherSEI: [UInt8] = [0x06, 0x05, 0x02, 0x00, 0x00, 0x03, 0x80]  // user data, with an escaped byte
        #expect(TransportAccessUnit.startsDecoding([recovery, Self.slice], codec: .h264))
        #expect(!TransportAccessUnit.startsDecoding([otherSEI, Self.slice], codec: .h264))
        #expect(!TransportAccessUnit.startsDecoding([Self.slice], codec: .h264))
        #expect(!TransportAccessUnit.startsDecoding([recovery], codec: .h264))  // no picture
    }

    @Test func picturesNothingRefersToAreDisposable() throws {
        let unreferenced: [UInt8] = [0x01, 0x9E, 0x02] + [UInt8](repeating: 0x44, count: 20)  // nal_ref_idc 0
        #expect(TransportAccessUnit.isDisposable([unreferenced], codec: .h264, highestTemporalID: nil))
        #expect(!TransportAccessUnit.isDisposable([Self.slice], codec: .h264, highestTemporalID: nil))  // nal_ref_idc 2
        #expect(!TransportAccessUnit.isDisposable([Self.sps, Self.pps], codec: .h264, highestTemporalID: nil))  // no slice
        // HEVC TRAIL_N (type 0) in sub-layer 0, TRAIL_R (type 1): disposable only where sub-layer 0 is the highest.
        let trailN: [UInt8] = [0x00, 0x01, 0xAF, 0x10]
        let trailR: [UInt8] = [0x02, 0x01, 0xAF, 0x10]
        #expect(TransportAccessUnit.isDisposable([trailN], codec: .hevc, highestTemporalID: 0))
        #expect(!TransportAccessUnit.isDisposable([trailN], codec: .hevc, highestTemporalID: 1))
        #expect(!TransportAccessUnit.isDisposable([trailR], codec: .hevc, highestTemporalID: 0))
        #expect(!TransportAccessUnit.isDisposable([trailN], codec: .hevc, highestTemporalID: nil))
        // The demuxer takes the highest sub-layer from the SPS: sps_max_sub_layers_minus1 in its third byte.
        var builder = TransportStreamBuilder()
        builder.tables([(0x24, Self.videoPID)])
        let units: [[UInt8]] = [[0x40, 0x01, 0x0C], [0x42, 0x01, 0x01], [0x44, 0x01, 0xC0], [0x2A, 0x01, 0xAF, 0x33]]
        builder.pes(pid: Self.videoPID, presentation: 0, payload: AnnexB.units(units))
        builder.pes(pid: Self.videoPID, presentation: 3000, payload: AnnexB.units([trailN]))
        builder.pes(pid: Self.videoPID, presentation: 6000, payload: AnnexB.units([trailR]))
        let demuxer = try Self.demuxed(builder.bytes)
        #expect(demuxer.accessUnits.map(\.isDisposable) == [false, true, false])
    }

    @Test func aTableWithAWrongCRCIsPassedOver() throws {
        var builder = TransportStreamBuilder()
        var damaged = TransportStreamBuilder.programMap([(0x1B, 0x200)])
        damaged[damaged.count - 1] ^= 0x01
        builder.section(pid: 0, TransportStreamBuilder.programAssociation(mapPID: 0x1000))
        builder.section(pid: 0x1000, damaged)
        builder.section(pid: 0x1000, TransportStreamBuilder.programMap([(0x1B, Self.videoPID)]))
        builder.pes(pid: Self.videoPID, presentation: 0, payload: AnnexB.units([Self.sps, Self.pps, Self.idr]))
        let demuxer = try Self.demuxed(builder.bytes)
        #expect(demuxer.video?.pid == Self.videoPID)
        #expect(demuxer.accessUnits.count == 1)
    }

    @Test func aProgramMapOverTwoPacketsIsJoined() throws {
        var builder = TransportStreamBuilder()
        // 40 audio streams before the video: a PMT of 217 bytes.
        let audio: [(type: UInt8, pid: UInt16)] = (0 ..< 40).map { (0x0F, UInt16(0x300 + $0)) }
        let streams = audio + [(0x1B, Self.videoPID)]
        builder.tables(streams)
        builder.pes(pid: Self.videoPID, presentation: 0, payload: AnnexB.units([Self.sps, Self.pps, Self.idr]))
        #expect(builder.bytes.count > 4 * 188)
        let demuxer = try Self.demuxed(builder.bytes)
        #expect(demuxer.video?.pid == Self.videoPID)
    }

    @Test func lostSyncIsFoundAgain() throws {
        var builder = TransportStreamBuilder()
        builder.tables([(0x1B, Self.videoPID)])
        builder.pes(pid: Self.videoPID, presentation: 1000, payload: AnnexB.units([Self.sps, Self.pps, Self.idr]))
        builder.raw([0x00, 0x47, 0x12, 0x99, 0x47])
        builder.pes(pid: Self.videoPID, presentation: 4000, payload: AnnexB.units([Self.slice]))
        let demuxer = try Self.demuxed(builder.bytes, chunk: 300)
        #expect(demuxer.resynchronisations == 1)
        #expect(demuxer.accessUnits.map(\.presentationTime) == [1000, 4000])
        #expect(demuxer.accessUnits[1].nalUnits == [Self.slice])
    }

    @Test func bytesThatAreNotATransportStreamAreRefused() throws {
        let error = try #require(throws: TransportStreamError.self) { _ = try Self.demuxed(Array("#EXTM3U\n".utf8)) }
        #expect(error.code == .notTransportStream)
        #expect(error.description == "byte 0: not an MPEG transport stream: its first byte is 0x23, not the sync byte 0x47")
    }

    @Test func anAdaptationFieldLongerThanItsPacketIsMalformed() throws {
        var bytes = Self.threePictures().bytes
        // The third packet (the IDR's first) has an adaptation field: claim 184 bytes for it.
        bytes[2 * 188 + 4] = 184
        let error = try #require(throws: TransportStreamError.self) { _ = try Self.demuxed(bytes) }
        #expect(error.code == .malformed)
        #expect(error.offset == 2 * 188)
        #expect(error.pid == Self.videoPID)
    }

    /// MPEG-2 video (stream type 0x02): its start code units come out as they are, a slice's last zero byte kept
    /// (it can be data: ffmpeg's decoder finds a slice cut by one byte a "slice mismatch"); an I picture is a
    /// keyframe, a B picture disposable, and the parameter sets are the sequence header and its extension.
    @Test func mpeg2VideoKeepsItsBytesAndTellsItsPictures() throws {
        let sequence: [UInt8] = [0xB3, 0x14, 0x00, 0xF0, 0x33, 0xFF, 0xFF, 0xE0, 0x18]
        let sequenceExtension: [UInt8] = [0xB5, 0x14, 0x8A, 0x00, 0x01, 0x00, 0x00]
        let pictureCodingExtension: [UInt8] = [0xB5, 0x8F, 0xFF, 0xF3, 0x41, 0x80]
        let slice: [UInt8] = [0x01, 0x2A, 0x7C, 0x00]  // ends in a zero byte of data
        func picture(type: UInt8) -> [UInt8] { [0x00, 0x00, type << 3, 0x00] }
        var builder = TransportStreamBuilder()
        builder.tables([(0x02, Self.videoPID)])
        func joined(_ units: [[UInt8]]) -> [UInt8] { units.flatMap { [UInt8(0), 0, 1] + $0 } }
        let intra = joined([sequence, sequenceExtension, picture(type: 1), pictureCodingExtension, slice])
        let bidirectional = joined([picture(type: 3), pictureCodingExtension, slice])
        builder.pes(pid: Self.videoPID, presentation: 3600, decoding: 0, payload: intra, randomAccess: true)
        builder.pes(pid: Self.videoPID, presentation: 0, decoding: 3600, payload: bidirectional)
        let demuxer = try Self.demuxed(builder.bytes)
        #expect(demuxer.video?.codec == .mpeg2)
        try #require(demuxer.accessUnits.count == 2)
        #expect(joined(demuxer.accessUnits[0].nalUnits) == intra)
        #expect(joined(demuxer.accessUnits[1].nalUnits) == bidirectional)
        #expect(demuxer.accessUnits.map(\.isKeyframe) == [true, false])
        #expect(demuxer.accessUnits.map(\.isDisposable) == [false, true])
        #expect(TransportVideoCodec.mpeg2.parameterSets(in: demuxer.accessUnits) == [sequence, sequenceExtension])
        let header = try #require(MPEG2VideoHeaders.Sequence(sequence))
        #expect(header.width == 320 && header.height == 240)
        #expect(header.pixelAspect?.horizontal == 4 && header.pixelAspect?.vertical == 3)  // 16:9 on 320x240
    }

    @Test func aProgramWithoutDecodableVideoIsUnsupported() throws {
        for (streams, detail) in [([(UInt8(0x0F), UInt16(0x101))], "the program lists no H.264, HEVC, MPEG-2 or MPEG-4 Part 2 video (stream types 0xf)"),
                                  ([(0x01, 0x100), (0x0F, 0x101)], "the program's video is MPEG-1 video, which is not decoded here"),
                                  ([(0xDB, 0x100)], "the program's video is H.264 encrypted with SAMPLE-AES, which is not decoded here")] {
            var builder = TransportStreamBuilder()
            builder.tables(streams)
            let error = try #require(throws: TransportStreamError.self) { _ = try Self.demuxed(builder.bytes) }
            #expect(error.code == .unsupported)
            #expect(error.detail == detail)
            #expect(error.pid == 0x1000)
        }
    }

    @Test func scrambledVideoIsUnsupported() throws {
        var builder = TransportStreamBuilder()
        builder.tables([(0x1B, Self.videoPID)])
        builder.pes(pid: Self.videoPID, presentation: 0, payload: AnnexB.units([Self.idr]), scrambled: true)
        let error = try #require(throws: TransportStreamError.self) { _ = try Self.demuxed(builder.bytes) }
        #expect(error.code == .unsupported)
        #expect(error.detail == "the video packets are scrambled")
    }

    @Test func theCapsHold() throws {
        let small = TransportStreamLimits(maximumAccessUnitBytes: 300)
        let tooLong = try #require(throws: TransportStreamError.self) { _ = try Self.demuxed(Self.threePictures().bytes, limits: small) }
        #expect(tooLong.code == .limitExceeded)
        let few = TransportStreamLimits(maximumAccessUnits: 2)
        let tooMany = try #require(throws: TransportStreamError.self) { _ = try Self.demuxed(Self.threePictures().bytes, limits: few) }
        #expect(tooMany.code == .limitExceeded)
        // Packets of PID 0x100 with no tables: the video is never named.
        var builder = TransportStreamBuilder()
        for _ in 0 ..< 20 { builder.pes(pid: Self.videoPID, presentation: 0, payload: AnnexB.units([Self.slice])) }
        let early = TransportStreamLimits(maximumBytesBeforeVideo: 1000)
        let noTables = try #require(throws: TransportStreamError.self) { _ = try Self.demuxed(builder.bytes, limits: early) }
        #expect(noTables.code == .limitExceeded)
        #expect(noTables.detail == "no program map naming a video stream in the first 1000 bytes")
    }

    @Test func bytesAfterTheEndAreATypedErrorAndARestartGoesOn() throws {
        var demuxer = try Self.demuxed(Self.threePictures().bytes)
        let error = try #require(throws: TransportStreamError.self) { try demuxer.append(Self.threePictures().bytes) }
        #expect(error.code == .malformed)
        demuxer.restart(at: 0)
        #expect(!demuxer.isFinished)
        #expect(demuxer.accessUnits.isEmpty)
    }

    @Test func aPESCutShortByTheEndIsLeftOut() throws {
        var builder = TransportStreamBuilder()
        builder.tables([(0x1B, Self.videoPID)])
        builder.pes(pid: Self.videoPID, presentation: 1000, payload: AnnexB.units([Self.sps, Self.pps, Self.idr]))
        builder.pes(pid: Self.videoPID, presentation: 4000, payload: AnnexB.units([Self.idr]), declaresLength: true)
        let bytes = Array(builder.bytes.dropLast(188))  // the second PES loses its last packet
        let demuxer = try Self.demuxed(bytes)
        #expect(demuxer.accessUnits.map(\.presentationTime) == [1000])
    }
}
