import MP4Box
import MP4BoxTestSupport
import Testing

/// What a track says about its media: the handler that names its kind, and the colour its colr box and SPS VUI describe.
@Suite struct TrackDescriptionTests {
    static func track(_ movie: SyntheticMovie) throws -> MovieTrack {
        try #require(try MovieParser.parse(fileBytes: movie.bytes()).tracks.first)
    }

    /// A colr box of type nclx (ISO/IEC 14496-12, 12.1.5), or nclc (QuickTime: no range flag) when `fullRange` is nil.
    static func colr(primaries: UInt16, transfer: UInt16, matrix: UInt16, fullRange: Bool?) -> [UInt8] {
        BoxBuilder.box("colr", BoxBuilder.fourCC(fullRange == nil ? "nclc" : "nclx")   // colour_type
            + BoxBuilder.u16(primaries) + BoxBuilder.u16(transfer) + BoxBuilder.u16(matrix)  // code points
            + (fullRange.map { [$0 ? 0x80 : 0x00] } ?? []))                               // full_range_flag, reserved
    }

    /// An avc1 entry whose SPS has a VUI with `vui` and whose children add `colr`.
    static func movie(vui: (UInt8, UInt8, UInt8, Bool)?, colr: [UInt8]) -> SyntheticMovie {
        var movie = SyntheticMovie()
        let sps = SyntheticMovie.sps(colour: vui.map { (primaries: $0.0, transfer: $0.1, matrix: $0.2, fullRange: $0.3) })
        let avcC = BoxBuilder.box("avcC", [1, 66, 0, 30, 0xFF, 0xE1] + BoxBuilder.u16(UInt16(sps.count)) + sps
            + [1] + BoxBuilder.u16(4) + [0x68, 0xCE, 0x38, 0x80])
        movie.sampleEntry = SyntheticMovie.visualEntry("avc1", children: avcC + colr)
        return movie
    }

    @Test func quickTimeDataHandlerDoesNotHideTheVisualSampleEntry() throws {
        var movie = SyntheticMovie()
        movie.quickTimeHandlers = true
        movie.sampleEntry = SyntheticMovie.avc1Entry()
        let track = try Self.track(movie)
        #expect(track.kind == .video)
        #expect(track.handlerType == "vide")
        #expect(track.visualEntry?.header.type == "avc1")
        #expect(track.videoParameters?.width == 64)
    }

    @Test(arguments: Orientation.all)
    func tkhdMatrixInIntegerUnitsGivesTheSameOrientation(_ orientation: Orientation) throws {
        // Writers that put 1 instead of 0x10000 in a, b, c, d: the signs still say how the picture turns.
        var movie = SyntheticMovie()
        let (a, b, c, d) = orientation.linear
        movie.matrix = (Int32(a), Int32(b), Int32(c), Int32(d))
        movie.matrixUnit = 1
        #expect(try Self.track(movie).orientation == orientation)
    }

    @Test func vuiColourIsReadWithoutAColrBox() throws {
        let track = try Self.track(Self.movie(vui: (1, 1, 1, true), colr: []))
        #expect(track.colour == ColourDescription(primaries: 1, transfer: 1, matrix: 1, fullRange: true))
    }

    /// The colr box wins over the VUI for its code points; the VUI fills what colr leaves unspecified (2), and its
    /// range wins where the two disagree (a camera that marks full range in the VUI and limited range in colr writes
    /// full-range samples; ffmpeg, mpv and browsers follow the bitstream), and gives one to an nclc box, which has none.
    @Test(arguments: [
        ((1, 1, 1, true), (1, 1, 1, false), ColourDescription(primaries: 1, transfer: 1, matrix: 1, fullRange: true)),
        ((1, 1, 1, false), (1, 1, 1, true), ColourDescription(primaries: 1, transfer: 1, matrix: 1, fullRange: false)),
        ((1, 1, 1, false), (9, 16, 9, false), ColourDescription(primaries: 9, transfer: 16, matrix: 9, fullRange: false)),
        ((6, 6, 6, false), (2, 2, 2, false), ColourDescription(primaries: 6, transfer: 6, matrix: 6, fullRange: false)),
        ((1, 1, 1, true), (1, 1, 1, nil), ColourDescription(primaries: 1, transfer: 1, matrix: 1, fullRange: true)),
    ] as [((UInt8, UInt8, UInt8, Bool), (UInt16, UInt16, UInt16, Bool?), ColourDescription)])
    func colrAndVUIMakeOneColour(vui: (UInt8, UInt8, UInt8, Bool), colr: (UInt16, UInt16, UInt16, Bool?),
                                 expected: ColourDescription) throws {
        let box = Self.colr(primaries: colr.0, transfer: colr.1, matrix: colr.2, fullRange: colr.3)
        #expect(try Self.track(Self.movie(vui: vui, colr: box)).colour == expected)
    }

    @Test func colrRangeCountsWhenTheBitstreamStatesNone() throws {
        let box = Self.colr(primaries: 1, transfer: 1, matrix: 1, fullRange: true)
        #expect(try Self.track(Self.movie(vui: nil, colr: box)).colour?.fullRange == true)
    }

    /// A clean aperture of 58x40.5 samples (centred) in the 64x48 picture, with 4:3 pixels: shown 77x41 (58 x 4/3
    /// = 77.3); the whole picture shows 85x48. Turned 90 degrees, both turn.
    @Test(arguments: [false, true])
    func cleanApertureSizeIsShownWithThePixelShape(turned: Bool) throws {
        var movie = SyntheticMovie()
        let clap = BoxBuilder.box("clap", BoxBuilder.u32(58) + BoxBuilder.u32(1) + BoxBuilder.u32(81) + BoxBuilder.u32(2)
            + BoxBuilder.u32(0) + BoxBuilder.u32(1) + BoxBuilder.u32(0) + BoxBuilder.u32(1))
        let pasp = BoxBuilder.box("pasp", BoxBuilder.u32(4) + BoxBuilder.u32(3))
        let avcC = BoxBuilder.box("avcC", [1, 66, 0, 30, 0xFF, 0xE1] + BoxBuilder.u16(UInt16(SyntheticMovie.sps().count))
            + SyntheticMovie.sps() + [1] + BoxBuilder.u16(4) + [0x68, 0xCE, 0x38, 0x80])
        movie.sampleEntry = SyntheticMovie.visualEntry("avc1", children: avcC + clap + pasp)
        if turned { movie.matrix = (0, 1, -1, 0) }
        let track = try Self.track(movie)
        let aperture = try #require(track.cleanApertureDisplaySize)
        let display = try #require(track.displaySize)
        #expect(turned ? (aperture.width, aperture.height) == (41, 77) : (aperture.width, aperture.height) == (77, 41))
        #expect(turned ? (display.width, display.height) == (48, 85) : (display.width, display.height) == (85, 48))
        #expect(try Self.track(Self.movie(vui: nil, colr: [])).cleanApertureDisplaySize == nil)
    }

    @Test func noColourAnywhereIsNil() throws {
        #expect(try Self.track(Self.movie(vui: nil, colr: [])).colour == nil)
    }

    @Test(arguments: [(720, 576, 6), (1279, 576, 6), (1280, 576, 1), (720, 577, 1), (1920, 1080, 1), (320, 240, 6)])
    func unspecifiedMatrixIsGuessedFromThePictureSize(_ width: Int, _ height: Int, _ matrix: Int) {
        #expect(ColourDescription.unspecified.resolvingUnspecifiedMatrix(width: width, height: height).matrix == matrix)
        let stated = ColourDescription(primaries: 1, transfer: 1, matrix: 9, fullRange: false)
        #expect(stated.resolvingUnspecifiedMatrix(width: width, height: height) == stated)
    }
}
