@testable import MP4Box
import MP4BoxTestSupport
import Testing

@Suite struct BoxReaderTests {
    @Test func readsBigEndianValuesAndTracksTheFileOffset() throws {
        var reader = BoxReader(bytes: [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09], fileOffset: 100)
        #expect(try reader.readUInt8() == 1)
        #expect(try reader.readUInt16() == 0x0203)
        #expect(reader.fileOffset == 103)
        #expect(try reader.readUInt32() == 0x0405_0607)
        #expect(reader.remaining == 2)
    }

    @Test func readPastTheEndNeedsMoreBytesWithTheOffset() {
        var reader = BoxReader(bytes: [1, 2, 3], fileOffset: 5000)
        #expect(throws: MP4Error.self) { try reader.readUInt32() }
        do {
            _ = try reader.readUInt32()
        } catch {
            #expect(error.code == .needMoreBytes)
            #expect(error.offset == 5000)
        }
    }

    @Test func childReaderCannotSeePastItsBox() throws {
        var reader = BoxReader(bytes: [1, 2, 3, 4, 5, 6])
        var child = try reader.child(byteCount: 2, path: BoxPath().appending("test"))
        #expect(try child.readUInt16() == 0x0102)
        #expect(throws: MP4Error.self) { try child.readUInt8() }
        #expect(try reader.readUInt8() == 3)
    }

    @Test func tableCountThatOverflowsIsMalformed() {
        let reader = BoxReader(bytes: [0, 0, 0, 0])
        #expect(throws: MP4Error.self) { try reader.requireTable(count: UInt64.max, entrySize: 8, name: "x") }
    }

    @Test func fourCCPrintsNonASCIIAsEscapes() {
        #expect(FourCC(rawValue: 0xA9_6E_61_6D).description == "\\xa9nam")
        #expect(FourCC("moov").description == "moov")
    }

    @Test func sizeZeroRunsToTheEndOfTheParent() throws {
        var reader = BoxReader(bytes: BoxBuilder.box("mdat", size: 0, [1, 2, 3]))
        let header = try BoxHeader.read(from: &reader, available: 11)
        #expect(header.size == 11)
        #expect(header.payloadSize == 3)
    }

    @Test func largeSizeIsRead() throws {
        var reader = BoxReader(bytes: BoxBuilder.largeBox("mdat", [1, 2]))
        let header = try BoxHeader.read(from: &reader, available: nil)
        #expect(header.size == 18)
        #expect(header.headerSize == 16)
    }

    @Test func uuidBoxKeepsItsUserType() throws {
        let userType: [UInt8] = Array(0..<16)
        var reader = BoxReader(bytes: BoxBuilder.box("uuid", userType + [9]))
        let header = try BoxHeader.read(from: &reader, available: nil)
        #expect(header.userType == userType)
        #expect(header.payloadSize == 1)
    }

    @Test func unknownBoxesAreKeptWithTheirRange() throws {
        let bytes = SyntheticMovie().bytes() + BoxBuilder.box("zzzz", [1, 2, 3])
        let movie = try MovieParser.parse(fileBytes: bytes)
        #expect(movie.tracks.count == 1)
        var reader = BoxReader(bytes: BoxBuilder.box("moov", BoxBuilder.box("zzzz", [1, 2, 3])))
        var context = ParseContext(limits: ParseLimits())
        let children = try BoxTreeReader.readChildren(&reader, context: &context)
        let moov = try #require(children.first as? ContainerBox)
        let unknown = try #require(moov.children.first as? UnknownBox)
        #expect(unknown.header.type == "zzzz")
        #expect(unknown.header.offset == 8)
        #expect(unknown.header.size == 11)
    }

    @Test func strictModeRejectsLeftoverBytes() throws {
        // An mfhd with 4 extra bytes.
        let bytes = BoxBuilder.fullBox("mfhd", BoxBuilder.u32(1) + BoxBuilder.u32(99))
        var limits = ParseLimits()
        limits.strict = true
        var reader = BoxReader(bytes: bytes, limits: limits)
        var context = ParseContext(limits: limits)
        #expect(throws: MP4Error.self) { _ = try BoxTreeReader.readChildren(&reader, context: &context) }
        var lenient = BoxReader(bytes: bytes)
        var lenientContext = ParseContext(limits: ParseLimits())
        _ = try BoxTreeReader.readChildren(&lenient, context: &lenientContext)
        #expect(lenientContext.diagnostics.count == 1)
    }
}
