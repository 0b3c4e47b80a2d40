import MP4Box
import MP4BoxTestSupport
import Testing

/// Truncated, corrupt and hostile inputs: each a typed error, never a crash, a hang or a huge allocation.
@Suite struct HostileInputTests {
    /// The offset of the first box of `type` in `bytes` (its size field).
    static func boxOffset(_ type: String, in bytes: [UInt8]) -> Int? {
        let code = Array(type.utf8)
        guard bytes.count >= 8 else { return nil }
        for index in 4...(bytes.count - 4) where Array(bytes[index..<index + 4]) == code {
            return index - 4
        }
        return nil
    }

    /// `bytes` with a big-endian 32-bit `value` written at `offset` bytes into the first `type` box.
    static func patched(_ bytes: [UInt8], box type: String, at offset: Int, _ value: UInt32) -> [UInt8] {
        var copy = bytes
        guard let start = boxOffset(type, in: bytes) else { return copy }
        copy.replaceSubrange(start + offset..<start + offset + 4, with: BoxBuilder.u32(value))
        return copy
    }

    /// Parses in memory and through the locator; both must throw an `MP4Error` with `code`.
    static func expectError(_ bytes: [UInt8], _ code: MP4Error.Code, containing text: String? = nil,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try MovieParser.parse(fileBytes: bytes)
            Issue.record("in-memory parse succeeded", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "in memory: \(error)", sourceLocation: sourceLocation)
            if let text { #expect(error.description.contains(text), "\(error)", sourceLocation: sourceLocation) }
        }
        do {
            _ = try MovieLocator().locate(in: MemoryFile(bytes))
            Issue.record("locator succeeded", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "locator: \(error)", sourceLocation: sourceLocation)
        }
    }

    static let valid = SyntheticMovie().bytes()

    @Test func syntheticMovieIsValid() throws {
        #expect(try MovieParser.parse(fileBytes: Self.valid).tracks.count == 1)
    }

    @Test func everyPrefixOfASmallFixtureThrowsATypedError() async throws {
        let bytes = try Fixtures.bytes("one-frame")
        for length in 0..<bytes.count {
            do {
                _ = try MovieParser.parse(fileBytes: Array(bytes[0..<length]))
                Issue.record("prefix of \(length) bytes parsed")
            } catch {
                #expect([.needMoreBytes, .notFound].contains(error.code), "prefix \(length): \(error)")
            }
        }
    }

    @Test func everyPrefixThroughTheLocatorThrowsATypedError() async throws {
        let bytes = try Fixtures.bytes("one-frame")
        for length in stride(from: 0, to: bytes.count, by: 7) {
            #expect(throws: MP4Error.self) {
                _ = try MovieLocator().locate(in: MemoryFile(Array(bytes[0..<length])))
            }
        }
    }

    @Test func stszEntryCountBeyondPayloadThrows() async {
        // stsz: header 8, version/flags 4, sample_size 4, then sample_count at 16.
        let bytes = Self.patched(Self.valid, box: "stsz", at: 16, 4_000_000_000)
        Self.expectError(bytes, .malformed, containing: "moov/trak[1]/mdia/minf/stbl/stsz at offset ")
        Self.expectError(bytes, .malformed, containing: ": entry count 4000000000 exceeds box size")
    }

    @Test func boxSizeSmallerThanItsHeaderThrows() async {
        Self.expectError(Self.patched(Self.valid, box: "mvhd", at: 0, 4), .malformed, containing: "smaller than its header")
    }

    @Test func childBoxLargerThanItsParentThrows() async {
        Self.expectError(Self.patched(Self.valid, box: "mvhd", at: 0, 100_000), .malformed, containing: "exceeds")
    }

    @Test func topLevelBoxPastTheEndOfTheFileThrows() async {
        let bytes = BoxBuilder.box("free", size: 100_000, [1, 2, 3]) + Self.valid
        Self.expectError(bytes, .needMoreBytes)
    }

    @Test func largeSizeSmallerThanItsHeaderThrows() async {
        let bytes = BoxBuilder.largeBox("free", largeSize: 9) + Self.valid
        Self.expectError(bytes, .malformed, containing: "smaller than its header")
    }

    @Test func fileWithoutMoovThrowsNotFound() async {
        let bytes = BoxBuilder.box("ftyp", BoxBuilder.fourCC("isom") + BoxBuilder.u32(0)) + BoxBuilder.box("mdat", [1, 2, 3])
        Self.expectError(bytes, .notFound)
    }

    @Test func emptyFileThrowsNotFound() async {
        Self.expectError([], .notFound)
    }

    @Test func sttsSampleCountsPastTheLimitThrow() async {
        // stts: header 8, version/flags 4, entry_count 4, first run's sample_count at 16.
        Self.expectError(Self.patched(Self.valid, box: "stts", at: 16, 0xFFFF_FFFF), .limitExceeded)
    }

    @Test func constantSampleSizeWithAHugeCountThrows() async {
        var bytes = Self.patched(Self.valid, box: "stsz", at: 12, 100)          // sample_size: constant
        bytes = Self.patched(bytes, box: "stsz", at: 16, 3_000_000_000)         // sample_count
        Self.expectError(bytes, .limitExceeded)
    }

    @Test func sttsCoveringFewerSamplesThanStszThrows() async {
        var movie = SyntheticMovie()
        movie.durations = [512, 512, 512, 512, 512, 512, 512]  // 7 durations for 8 sizes
        Self.expectError(movie.bytes(), .malformed, containing: "stts covers 7 samples")
    }

    @Test func stscFirstChunkZeroThrows() async {
        // stsc: header 8, version/flags 4, entry_count 4, first entry's first_chunk at 16.
        Self.expectError(Self.patched(Self.valid, box: "stsc", at: 16, 0), .malformed, containing: "first chunk")
    }

    @Test func stscNamingMoreChunksThanStcoKeepsTheSamplesTheChunksHold() throws {
        // As ffmpeg and Media3: the samples of chunks that have an offset are kept, the rest left out, with a warning.
        var movie = SyntheticMovie()
        movie.samplesPerChunk = [3, 3, 2]
        var bytes = movie.bytes()
        bytes = Self.patched(bytes, box: "stco", at: 12, 2)  // entry_count 3 -> 2: the third chunk has no offset
        let parsed = try MovieParser.parse(fileBytes: bytes)
        let track = try #require(parsed.tracks.first)
        #expect(track.samples.count == 6)
        #expect(track.samples.syncSampleCount == 2)  // stss names samples 1 and 5, both held
        #expect(parsed.diagnostics.contains { $0.detail.contains("chunks hold 6 of the 8 samples") })
        let offsets = movie.expectedOffsets()
        for index in 0..<6 { #expect(try track.samples.sample(at: index).offset == offsets[index]) }
    }

    @Test func stcoEntryCountBeyondPayloadThrows() async {
        Self.expectError(Self.patched(Self.valid, box: "stco", at: 12, 1_000_000), .malformed, containing: "entry count")
    }

    @Test func cttsEntryCountBeyondPayloadThrows() async {
        Self.expectError(Self.patched(Self.valid, box: "ctts", at: 12, 0x7FFF_FFFF), .malformed, containing: "entry count")
    }

    @Test func syncSamplesOutOfOrderThrow() async {
        var movie = SyntheticMovie()
        movie.syncSamples = [5, 1]
        Self.expectError(movie.bytes(), .malformed, containing: "does not ascend")
    }

    @Test func editListEntryCountBeyondPayloadThrows() async {
        Self.expectError(Self.patched(Self.valid, box: "elst", at: 12, 50_000), .malformed, containing: "entry count")
    }

    @Test func negativeEditMediaTimeOtherThanEmptyThrows() async {
        var movie = SyntheticMovie()
        movie.edits = [(4000, -5, 0x10000)]
        Self.expectError(movie.bytes(), .malformed, containing: "media time")
    }

    @Test func zeroMovieTimescaleThrows() async {
        // mvhd v0: header 8, version/flags 4, creation 4, modification 4, timescale at 20.
        Self.expectError(Self.patched(Self.valid, box: "mvhd", at: 20, 0), .malformed, containing: "timescale is 0")
    }

    @Test func zeroMediaTimescaleThrows() async {
        Self.expectError(Self.patched(Self.valid, box: "mdhd", at: 20, 0), .malformed, containing: "timescale is 0")
    }

    @Test func unknownMovieHeaderVersionIsUnsupported() async {
        // version byte 2 at offset 8; keep flags zero.
        Self.expectError(Self.patched(Self.valid, box: "mvhd", at: 8, 0x0200_0000), .unsupported, containing: "mvhd version 2")
    }

    @Test func trackWithoutTrackHeaderThrows() async {
        // Rename tkhd to a type nobody knows: the trak then has no tkhd.
        var bytes = Self.valid
        if let offset = Self.boxOffset("tkhd", in: bytes) { bytes.replaceSubrange(offset + 4..<offset + 8, with: Array("xxxx".utf8)) }
        Self.expectError(bytes, .malformed, containing: "no tkhd")
    }

    @Test func compactSampleSizeWithAnOddFieldSizeThrows() async {
        var movie = SyntheticMovie()
        movie.compactSampleSizeField = 8
        // stz2: header 8, version/flags 4, reserved 3, field_size at byte 15.
        var bytes = movie.bytes()
        if let offset = Self.boxOffset("stz2", in: bytes) { bytes[offset + 15] = 5 }
        Self.expectError(bytes, .malformed, containing: "field size 5")
    }

    @Test func deeplyNestedBoxesHitTheDepthLimit() async {
        var nested = BoxBuilder.box("free")
        for _ in 0..<40 { nested = BoxBuilder.box("udta", nested) }
        let bytes = BoxBuilder.box("moov", nested)
        Self.expectError(bytes, .limitExceeded, containing: "nesting")
    }

    @Test func sampleDescriptionCountBeyondPayloadThrows() async {
        Self.expectError(Self.patched(Self.valid, box: "stsd", at: 12, 1_000_000), .malformed, containing: "entry count")
    }

    @Test func avcConfigurationWithLengthSizeThreeThrows() async {
        var bytes = Self.valid
        // avcC payload: version, profile, compatibility, level, then 0xFF (length size 4) at byte 12.
        if let offset = Self.boxOffset("avcC", in: bytes) { bytes[offset + 12] = 0xFE }
        Self.expectError(bytes, .malformed, containing: "length size 3")
    }

    @Test func moovCutShortInTheLocatorNeedsMoreBytes() async throws {
        var movie = SyntheticMovie()
        movie.moovFirst = false
        let bytes = movie.bytes()
        Self.expectError(Array(bytes.dropLast(10)), .needMoreBytes)
    }

    @Test func trackRunCountBeyondPayloadThrows() async {
        let trun = BoxBuilder.fullBox("trun", flags: 0x200, BoxBuilder.u32(1_000_000) + BoxBuilder.u32(10))
        let traf = BoxBuilder.box("traf", BoxBuilder.fullBox("tfhd", flags: 0x02_0000, BoxBuilder.u32(1)) + trun)
        let bytes = BoxBuilder.box("moof", BoxBuilder.fullBox("mfhd", BoxBuilder.u32(1)) + traf) + Self.valid
        Self.expectError(bytes, .malformed, containing: "entry count 1000000")
    }

    @Test func segmentIndexCountBeyondPayloadThrows() async {
        let sidx = BoxBuilder.fullBox("sidx", BoxBuilder.u32(1) + BoxBuilder.u32(1000) + BoxBuilder.u32(0) + BoxBuilder.u32(0)
            + BoxBuilder.u16(0) + BoxBuilder.u16(500))
        Self.expectError(sidx + Self.valid, .malformed, containing: "entry count 500")
    }

    /// Boxes whose layout depends on the version: one past the versions the specification defines must not be
    /// read with another version's layout (a version 2 sidx read as version 0 gives wrong offsets).
    @Test(arguments: [
        ("sidx", BoxBuilder.u32(1) + BoxBuilder.u32(1000) + [UInt8](repeating: 0, count: 24)),
        ("tfra", BoxBuilder.u32(1) + BoxBuilder.u32(0) + BoxBuilder.u32(0)),
        ("tfdt", [UInt8](repeating: 0, count: 16)),
    ])
    func topLevelOrFragmentBoxOfAnUnknownVersionIsUnsupported(type: String, payload: [UInt8]) async {
        let box: [UInt8] = switch type {
        case "tfdt":
            BoxBuilder.box("moof", BoxBuilder.fullBox("mfhd", BoxBuilder.u32(1)) + BoxBuilder.box("traf",
                BoxBuilder.fullBox("tfhd", flags: 0x02_0000, BoxBuilder.u32(1)) + BoxBuilder.fullBox("tfdt", version: 2, payload)))
        case "tfra": BoxBuilder.box("mfra", BoxBuilder.fullBox("tfra", version: 2, payload))
        default: BoxBuilder.fullBox(type, version: 2, payload)
        }
        Self.expectError(box + Self.valid, .unsupported, containing: "\(type) version 2")
    }

    @Test func trackRunOfAnUnknownVersionIsUnsupported() async {
        let trun = BoxBuilder.fullBox("trun", version: 2, flags: 0x200, BoxBuilder.u32(1) + BoxBuilder.u32(10))
        let traf = BoxBuilder.box("traf", BoxBuilder.fullBox("tfhd", flags: 0x02_0000, BoxBuilder.u32(1)) + trun)
        let bytes = BoxBuilder.box("moof", BoxBuilder.fullBox("mfhd", BoxBuilder.u32(1)) + traf) + Self.valid
        Self.expectError(bytes, .unsupported, containing: "trun version 2")
    }

    @Test func randomByteFlipsNeverCrash() throws {
        let original = try Fixtures.bytes("h264-faststart")
        var generator = SplitMix64(seed: 42)
        var outcomes: [String: Int] = [:]
        for _ in 0..<2_000 {
            var bytes = original
            for _ in 0..<4 {
                let index = Int(generator.next() % UInt64(min(bytes.count, 2_000)))  // hit ftyp and moov
                bytes[index] = UInt8(truncatingIfNeeded: generator.next())
            }
            do {
                let movie = try MovieParser.parse(fileBytes: bytes)
                for track in movie.tracks where track.samples.count > 0 {
                    _ = try? track.samples.sample(at: track.samples.count - 1)
                    _ = try? track.syncSample(nearest: track.presentationTime(seconds: 1))
                }
                outcomes["parsed", default: 0] += 1
            } catch {
                outcomes[error.code.rawValue, default: 0] += 1
            }
        }
        #expect(outcomes.values.reduce(0, +) == 2_000)
    }
}
