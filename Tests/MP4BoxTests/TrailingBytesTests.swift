import Foundation
import MP4Box
import MP4BoxTestSupport
import Testing

/// A file that ends with fewer bytes than a box header after its last whole box (a cut or padded download): the
/// index before them is whole, so the movie is kept with a diagnostic, as players keep it, whatever the size of the
/// first read. HTTPFuzzer found the first case: with ends that covered the file the walk reached those bytes and
/// threw `needMoreBytes`, while smaller ends took the sidx's word for where the fragments end and gave the movie.
@Suite struct TrailingBytesTests {
    static func summary(_ movie: Movie) -> [String] {
        movie.tracks.map { "\($0.id): \($0.samples.count) samples, \($0.samples.syncSampleCount) sync" }
    }

    @Test(arguments: [1, 4, 7])
    func fewerBytesThanAHeaderAfterTheLastFragmentAreIgnored(_ trailing: Int) async throws {
        let file = try Fixtures.bytes("fragmented")
        let expected = Self.summary(try MovieLocator.movie(of: file, ends: 80 * 1024))
        let padded = file + [UInt8](repeating: 0x61, count: trailing)
        for ends in [1024, 16 * 1024, 80 * 1024, 256 * 1024] {
            let movie = try MovieLocator.movie(of: padded, ends: ends)
            #expect(Self.summary(movie) == expected, "ends \(ends)")
            #expect(movie.diagnostics.contains { $0.offset == UInt64(file.count) && $0.detail.contains("fewer than a box header") },
                    "ends \(ends): \(movie.diagnostics)")
        }
    }

    /// HTTPFuzzer's input (Fuzz/findings/http/trailing-bytes-under-a-header-after-sidx-fragments.bin, a Shaka init
    /// and media segment whose sidx counts the 4 bytes after its mdat): the same movie from every first read.
    @Test func theFindingGivesOneMovieWhateverTheFirstRead() async throws {
        let url = Fixtures.repositoryRoot.appendingPathComponent("Fuzz/findings/http/trailing-bytes-under-a-header-after-sidx-fragments.bin")
        let input = [UInt8](try Data(contentsOf: url))
        let file = Array(input[3...])
        let small = Self.summary(try MovieLocator.movie(of: file, ends: 1024))
        #expect(small.count == 1, "\(small)")
        for ends in [4096, 16 * 1024, 80 * 1024] {
            #expect(Self.summary(try MovieLocator.movie(of: file, ends: ends)) == small, "ends \(ends)")
        }
    }

    /// Without a whole index before them, the same bytes are still a cut-off file.
    @Test func aFileOfFewerBytesThanAHeaderAfterFtypAloneStillNeedsMoreBytes() async throws {
        let ftyp: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 2, 0]
        #expect(throws: MP4Error.self) { _ = try MovieLocator.movie(of: ftyp + [0, 0, 1], ends: 1024) }
    }
}
