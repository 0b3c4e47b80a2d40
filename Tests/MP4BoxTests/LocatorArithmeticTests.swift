import Foundation
@testable import MP4Box
import MP4BoxTestSupport
import Testing

/// Sizes and offsets from the input that would overflow or size a read past the limits, in every path of the locator.
@Suite struct LocatorArithmeticTests {
    /// ftyp then moov of `fragmented.mp4`: an init segment (742 bytes).
    static func initSegment() throws -> [UInt8] {
        Array(try Fixtures.bytes("fragmented").prefix(742))
    }

    @Test func largesizeInsideMoovReadTrackByTrackThrowsMalformed() async throws {
        // A moov whose second child claims a 64-bit size near 2^64: position + size would overflow.
        let mvhd = BoxBuilder.fullBox("mvhd", BoxBuilder.zeros(8) + BoxBuilder.u32(1000) + BoxBuilder.zeros(84))  // timescale 1000
        let liar = BoxBuilder.largeBox("trak", largeSize: UInt64.max - 8, BoxBuilder.zeros(64))
        let moov = BoxBuilder.box("moov", mvhd + liar + BoxBuilder.zeros(4096))
        let file = BoxBuilder.box("ftyp", BoxBuilder.fourCC("isom") + BoxBuilder.u32(0)) + moov
        var options = MovieLocator.Options()
        options.readsOnlyVideoTracks = true
        options.partialMoovThreshold = 0
        options.headSize = 64
        #expect(try #require(throws: MP4Error.self) {
            _ = try MovieLocator(options: options).locate(in: MemoryFile(file))
        }.code == .malformed)
    }

    @Test func boxEndingPastAnyFileOffsetThrowsWhenTheLengthIsHidden() async throws {
        // With the length unknown (Content-Range: bytes 0-N/*), nothing bounds a box by the file: its end must
        // still be a file offset (below 2^63), or the next header's position overflows.
        let file = BoxBuilder.box("ftyp", BoxBuilder.fourCC("isom") + BoxBuilder.u32(0))
            + BoxBuilder.largeBox("free", largeSize: UInt64.max - 40, BoxBuilder.zeros(256))
        var options = MovieLocator.Options()
        options.headSize = 64  // a full read: the length stays unknown
        #expect(try #require(throws: MP4Error.self) {
            _ = try MovieLocator(options: options).locate(in: MemoryFile(file, revealsLength: false))
        }.code == .malformed)
    }

    @Test func moofNamedBySidxLargerThanTheIndexCapThrowsWithoutReadingIt() async throws {
        // A sidx with one 1 GiB subsegment whose moof claims 900 MiB, in a (sparse) 2 GiB file: the moof must not
        // be read past `maximumIndexBoxSize`.
        let sidx = BoxBuilder.fullBox("sidx", BoxBuilder.u32(1) + BoxBuilder.u32(1000)  // reference_ID, timescale
            + BoxBuilder.u32(0) + BoxBuilder.u32(0)                                   // earliest time, first offset
            + BoxBuilder.u16(0) + BoxBuilder.u16(1)                                   // reserved, reference count
            + BoxBuilder.u32(1 << 30) + BoxBuilder.u32(1000) + BoxBuilder.u32(0x9000_0000))  // size, duration, SAP
        let moofHeader = BoxBuilder.u32(1) + BoxBuilder.fourCC("moof") + BoxBuilder.u64(900 << 20)
        let prefix = try Self.initSegment() + sidx + moofHeader
        let source = MemoryFile(prefix, length: 2 << 30)
        var options = MovieLocator.Options()
        options.limits.maximumIndexBoxSize = 1 << 20
        #expect(try #require(throws: MP4Error.self) {
            _ = try MovieLocator(options: options).locate(in: source)
        }.code == .limitExceeded)
        let bytesAsked = source.ranges.reduce(UInt64(0)) { $0 + UInt64($1.count) }
        #expect(bytesAsked < 1 << 20)
    }

    /// Found by LocatorFuzzer (Fuzz/findings/locator/sidx-span-overflow.bin: its two control bytes, then the file): a
    /// sidx whose first offset and reference sizes add past 2^64 made the span it indexes a range whose end is before
    /// its start, and the range trapped. The options are the ones its control bytes chose. The file (ftyp, a moov whose
    /// one avc1 track has an empty sample table and an mvex, a sidx whose first offset is 2^64 - 256, then 221 bytes
    /// of a box that claims 1,600) indexes nothing a reader could reach: the sidx is passed over and the movie is its
    /// moov alone, one video track without samples, as players read it.
    @Test func sidxSpanPastTheLargestOffsetDoesNotTrap() async throws {
        let input = [UInt8](try Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Fuzz/findings/locator/sidx-span-overflow.bin")))
        #expect(input.prefix(2) == [0x08, 0x41])
        var options = MovieLocator.Options()
        options.headSize = 16
        options.partialMoovThreshold = 0
        options.fragmentProbeSize = 32
        options.trackProbeSize = 64
        options.tailReadLimit = 64
        let source = MemoryFile(Array(input.dropFirst(2)), revealsLength: false)
        let located = try MovieLocator(options: options).locate(in: source)
        #expect(located.topLevelBoxes.prefix(3).map(\.type) == ["ftyp", "moov", "sidx"])
        #expect(located.topLevelBoxes[2].offset == 819)
        let track = try #require(located.movie.tracks.first)
        #expect(located.movie.tracks.count == 1)
        #expect(track.kind == .video && track.sampleEntryType == "avc1")
        #expect(track.samples.count == 0)
    }

    /// Found by LocatorFuzzer (Fuzz/findings/locator/moof-cut-by-the-end-inside-its-probe.bin, control bytes 0x08 0x16:
    /// a 16-byte head, the length hidden, every fragment read, 1 KiB fragment probes, 256-byte track probes). The file
    /// is an ftyp, a moov, a sidx at 806 whose one subsegment starts at 850 and claims 18,356 bytes, and a moof at 850
    /// that claims 604 bytes while the file ends at 1,153. The subsegment's 1 KiB probe came back with the 303 bytes
    /// there were, fewer than the moof; the rest was then asked for from the probe's end (1,874) to the moof's end
    /// (1,470), a range whose end is before its start, and it trapped. The file ends inside the moof, and that is
    /// the error, where it ends.
    @Test func aMoofCutByTheEndOfTheFileInsideItsProbeIsAnError() async throws {
        let input = [UInt8](try Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent(
            "Fuzz/findings/locator/moof-cut-by-the-end-inside-its-probe.bin")))
        #expect(input.prefix(2) == [0x08, 0x16])
        #expect(input.count - 2 == 1_153)
        var options = MovieLocator.Options()
        options.headSize = 16
        options.partialMoovThreshold = 0
        options.fragmentProbeSize = 1_024
        options.trackProbeSize = 256
        let source = MemoryFile(Array(input.dropFirst(2)), revealsLength: false)
        let error = try #require(throws: MP4Error.self) { _ = try MovieLocator(options: options).locate(in: source) }
        #expect(error.code == .needMoreBytes)
        #expect(error.offset == 1_153)
        #expect(error.path == "moof")
    }
}
