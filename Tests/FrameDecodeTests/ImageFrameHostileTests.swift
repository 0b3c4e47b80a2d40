import FrameDecode
import Foundation
import MP4Box
import MP4BoxTestSupport
import Testing

/// Corrupt and hostile Motion JPEG and PNG frames (the codec corpus's movies, their first sample damaged): typed
/// errors, never a crash, and no picture memory sized by a header past the limits.
@Suite struct ImageFrameHostileTests {
    static func fixture(_ name: String) throws -> DecoderFixture {
        try DecoderFixture(movie: [UInt8](try Data(contentsOf: URL(fileURLWithPath: MediaCorpus.codecs.path(name)))), name: name)
    }

    static let movies = ["mjpeg-420-jpeg.mov", "png-rgb24.mov"]

    @Test(arguments: movies)
    func theUndamagedFrameDecodes(_ name: String) throws {
        let fixture = try Self.fixture(name)
        let frames = try fixture.decodeAll([try fixture.keyframe()])
        #expect(frames.count == 1)
    }

    @Test(arguments: movies)
    func aTruncatedFrameIsRefused(_ name: String) throws {
        let fixture = try Self.fixture(name)
        var input = try fixture.keyframe()
        input.bytes.removeLast(input.bytes.count / 2)
        do {
            let frames = try fixture.decodeAll([input])
            // libjpeg-turbo fills what is missing of a cut JPEG (as ffmpeg does) and says so: a picture may come.
            #expect(name.hasPrefix("mjpeg") && frames.count == 1, "a cut PNG decoded")
        } catch {
            #expect([.malformedSample, .decoderRejected].contains(error.code), "\(error)")
        }
    }

    @Test(arguments: movies)
    func garbageIsRefused(_ name: String) throws {
        let fixture = try Self.fixture(name)
        var input = try fixture.keyframe()
        var generator = SplitMix64(seed: 7)
        input.bytes = (0..<input.bytes.count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let error = try #require(throws: DecodeError.self) { _ = try fixture.decodeAll([input]) }
        #expect([.malformedSample, .decoderRejected].contains(error.code), "\(error)")
    }

    /// A header that asks for a picture past the limits is refused before any picture memory is allocated.
    @Test(arguments: movies)
    func aHugeHeaderIsLimited(_ name: String) throws {
        let fixture = try Self.fixture(name)
        var input = try fixture.keyframe()
        if name.hasPrefix("png") {
            // IHDR's width and height, right after the signature and the chunk's length and type; its CRC made again.
            input.bytes.replaceSubrange(16..<24, with: [0, 0, 0x7F, 0xFF, 0, 0, 0x7F, 0xFF])
            let crc = Self.crc32(input.bytes[12..<29])
            input.bytes.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        } else {
            // SOF0's height and width (FF C0, length, precision, then height and width).
            let sof = try #require((0..<input.bytes.count - 1).first { input.bytes[$0] == 0xFF && input.bytes[$0 + 1] == 0xC0 })
            input.bytes.replaceSubrange(sof + 5..<sof + 9, with: [0x7F, 0xF0, 0x7F, 0xF0])
        }
        let error = try #require(throws: DecodeError.self) { _ = try fixture.decodeAll([input]) }
        #expect(error.code == .limitExceeded, "\(error)")
    }

    /// PNG's CRC-32 (ISO 3309, reflected, polynomial 0xEDB88320) of `bytes`.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
