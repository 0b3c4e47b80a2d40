import MP4Box
import MP4BoxTestSupport
import Testing

/// AV1's OBU framing and sequence header (AV1 specification 5.3, 5.5), and av1C (AV1-ISOBMFF 2.3): against headers
/// written bit by bit here and against what ffprobe says about real files.
@Suite struct AV1Tests {
    /// A sequence header's payload: the OBU without its two header bytes (header and one-byte size).
    static func payload(_ obu: [UInt8]) -> ArraySlice<UInt8> { obu[2...] }

    @Test func obusAreSplitByTheirSizeFields() throws {
        // A temporal delimiter, a sequence header, and a frame OBU without a size field that runs to the end.
        let header = SyntheticMovie.av1SequenceHeader()
        let bytes: [UInt8] = [0x12, 0x00] + header + [0x30, 0xAA, 0xBB]
        let units = try AV1OBU.units(in: bytes, name: "sample")
        #expect(units.map(\.type) == [2, 1, 6])
        #expect(units[1].range == 2..<(2 + header.count))
        #expect(Array(bytes[units[1].payload]) == Array(Self.payload(header)))
        #expect(units[2].payload == (bytes.count - 2)..<bytes.count)
    }

    @Test func extensionHeadersGiveTheLayers() throws {
        // obu_extension_flag with temporal_id 2, spatial_id 1, then a size of one byte.
        let units = try AV1OBU.units(in: [0x36, 0x48, 0x01, 0x00], name: "sample")
        #expect(units.count == 1)
        #expect(units[0].layer?.temporal == 2 && units[0].layer?.spatial == 1)
        #expect(units[0].payload == 3..<4)
    }

    @Test func obuFramingErrorsSayWhatAndWhere() {
        let forbidden = #expect(throws: MP4Error.self) { try AV1OBU.units(in: [0x12, 0x00, 0x92, 0x00], name: "sample") }
        #expect(forbidden?.code == .malformed && forbidden?.offset == 2)
        let pastTheEnd = #expect(throws: MP4Error.self) { try AV1OBU.units(in: [0x32, 0x10, 0x00], name: "sample") }
        #expect(pastTheEnd?.code == .needMoreBytes && pastTheEnd?.offset == 0)
        // A leb128 of eight bytes that all say "more follows".
        let endless = #expect(throws: MP4Error.self) { try AV1OBU.units(in: [0x32] + [UInt8](repeating: 0x80, count: 8), name: "sample") }
        #expect(endless?.code == .malformed)
        let cutSize = #expect(throws: MP4Error.self) { try AV1OBU.units(in: [0x32, 0x80], name: "sample") }
        #expect(cutSize?.code == .needMoreBytes)
    }

    @Test(arguments: [(0, 8), (0, 10), (2, 12)])
    func sequenceHeaderGivesSizeDepthAndColour(profile: Int, bitDepth: Int) throws {
        let header = SyntheticMovie.av1SequenceHeader(profile: profile, width: 3840, height: 2160, bitDepth: bitDepth,
                                                       colour: (9, 16, 9, true))
        let parameters = try AV1SequenceHeader.parse(Self.payload(header))
        #expect(parameters.codedWidth == 3840 && parameters.codedHeight == 2160)
        #expect(parameters.bitDepthLuma == bitDepth && parameters.bitDepthChroma == bitDepth)
        #expect(parameters.chromaFormat == 1)
        #expect(parameters.profile == profile && parameters.level == 8)
        #expect(parameters.colour == ColourDescription(primaries: 9, transfer: 16, matrix: 9, fullRange: true))
        #expect(parameters.cropLeft == 0 && parameters.cropBottom == 0 && !parameters.isInterlaced)
    }

    @Test func sequenceHeaderChromaFormats() throws {
        let monochrome = try AV1SequenceHeader.parse(Self.payload(SyntheticMovie.av1SequenceHeader(monochrome: true)))
        #expect(monochrome.chromaFormat == 0)
        let high = try AV1SequenceHeader.parse(Self.payload(SyntheticMovie.av1SequenceHeader(profile: 1)))
        #expect(high.chromaFormat == 3)
        let professional = try AV1SequenceHeader.parse(Self.payload(SyntheticMovie.av1SequenceHeader(profile: 2, bitDepth: 10)))
        #expect(professional.chromaFormat == 2)
        let sRGB = try AV1SequenceHeader.parse(Self.payload(SyntheticMovie.av1SequenceHeader(profile: 1, colour: (1, 13, 0, false))))
        #expect(sRGB.chromaFormat == 3 && sRGB.colour?.fullRange == true)
    }

    @Test func badSequenceHeadersAreTypedErrors() {
        let header = Array(Self.payload(SyntheticMovie.av1SequenceHeader()))
        for length in 0..<6 {
            let error = #expect(throws: MP4Error.self) { try AV1SequenceHeader.parse(header.prefix(length)) }
            #expect(error?.code == .needMoreBytes, "cut at \(length) bytes")
        }
        let reserved = #expect(throws: MP4Error.self) { try AV1SequenceHeader.parse([0xE0] + header.dropFirst()) }
        #expect(reserved?.code == .malformed)
    }

    @Test func av1CInASampleEntryGivesTheTracksParameters() throws {
        let header = SyntheticMovie.av1SequenceHeader(width: 1920, height: 1080, bitDepth: 10)
        let movie = SyntheticMovie(sampleEntry: SyntheticMovie.av01Entry(configOBUs: header, bitDepth: 10))
        let track = try #require(try MovieParser.parse(fileBytes: movie.bytes()).tracks.first)
        let av1C = try #require(track.visualEntry?.av1Configuration)
        #expect(av1C.bitDepth == 10 && av1C.profile == 0 && av1C.level == 8 && !av1C.monochrome)
        #expect(av1C.configOBUs == header)
        #expect(track.codingFormat == "av01")
        #expect(track.videoParameters?.codedWidth == 1920 && track.videoParameters?.bitDepthLuma == 10)
    }

    @Test func av1CWithoutConfigOBUsLeavesTheParametersToTheSamples() throws {
        let track = try #require(try MovieParser.parse(fileBytes: SyntheticMovie(sampleEntry: SyntheticMovie.av01Entry(configOBUs: [])).bytes()).tracks.first)
        #expect(track.visualEntry?.av1Configuration != nil)
        #expect(track.videoParameters == nil)
        #expect(track.visualEntry?.sequenceParameters == nil)
    }

    @Test func unreadableAv1CSequenceHeaderIsKeptAsAFailure() throws {
        let cut: [UInt8] = [0x0A, 0x02, 0x00, 0x00]  // a sequence header OBU of two bytes
        let track = try #require(try MovieParser.parse(fileBytes: SyntheticMovie(sampleEntry: SyntheticMovie.av01Entry(configOBUs: cut)).bytes()).tracks.first)
        guard case .failure(let error) = track.visualEntry?.sequenceParameters else {
            Issue.record("a cut sequence header was read")
            return
        }
        #expect(error.code == .needMoreBytes)
    }

    /// Real AV1 movies: their sequence header (in av1C, else in the first sample) against ffprobe.
    static let realWorldAV1 = MediaCorpus.realWorld.names.filter {
        !MediaCorpus.isMatroska($0) && (try? MediaCorpus.realWorld.expectation($0))?.video?.codecName == "av1"
    }

    @Test(arguments: realWorldAV1)
    func realFilesSequenceHeadersMatchFFprobe(_ name: String) async throws {
        let expected = try #require(try MediaCorpus.realWorld.expectation(name).video)
        let source = try MemoryFile(path: MediaCorpus.realWorld.path(name))
        let movie = try MovieLocator().locate(in: source).movie
        let track = try #require(movie.tracks.first { $0.id == expected.trackID })
        var parameters = track.videoParameters
        if parameters == nil {
            let first = try track.samples.sample(at: 0)
            let bytes = source.bytes(in: first.byteRange)
            let units = try AV1OBU.units(in: bytes, name: "sample 0")
            let header = try #require(units.first { $0.type == AV1OBU.sequenceHeaderType }, "\(name): no sequence header")
            parameters = try AV1SequenceHeader.parse(bytes[header.payload])
        }
        let read = try #require(parameters)
        #expect(read.codedWidth == expected.width && read.codedHeight == expected.height)
        #expect(read.bitDepthLuma == ((expected.pixFmt ?? "").contains("10") ? 10 : 8))
        #expect(read.chromaFormat == 1, "ffprobe: \(expected.pixFmt ?? "?")")
        let primaries = ["bt709": 1, "bt2020": 9][expected.colorPrimaries ?? ""] ?? ColourDescription.unspecifiedCode
        let transfer = ["bt709": 1, "smpte2084": 16, "arib-std-b67": 18][expected.colorTransfer ?? ""] ?? ColourDescription.unspecifiedCode
        let matrix = ["bt709": 1, "bt2020nc": 9][expected.colorSpace ?? ""] ?? ColourDescription.unspecifiedCode
        #expect(read.colour == ColourDescription(primaries: primaries, transfer: transfer, matrix: matrix,
                                                 fullRange: expected.colorRange == "pc"))
    }
}
