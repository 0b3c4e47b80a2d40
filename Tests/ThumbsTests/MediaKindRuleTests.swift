import ByteSources
import Foundation
import Matroska
import MP4Box
import MP4BoxTestSupport
import StreamManifests
import Synchronization
import Testing
import Thumbs
import TransportStream

/// The one rule that tells a movie from a stream: content first, name second; each reading tried at most once.
@Suite struct MediaKindRuleTests {
    /// Which readings the rule ran, in order, and what the chosen one gave.
    struct Outcome: Equatable {
        var tried: [String]
        var result: String?
        var error: String?
    }

    /// Runs the rule on `bytes` named `name`, with readings that fail as the real ones fail on the other kind: the
    /// movie's with `MP4Error` `notAMovie` unless the bytes start with an `ftyp` box, the stream's with `ManifestError`
    /// `notAManifest` unless `StreamManifest.format(of:)` knows them.
    static func outcome(named name: String, bytes: [UInt8]) async -> Outcome {
        let input = CustomInput(key: name) { MemoryByteSource(bytes) }
        var tried: [String] = []
        do {
            let result = try await input.readingMedia(asMovie: {
                tried.append("movie")
                guard bytes.count >= 8, Array(bytes[4..<8]) == Array("ftyp".utf8) else {
                    throw MP4Error(.notAMovie, path: "", offset: 0, "not an MP4")
                }
                return "movie"
            }, asStream: { description in
                switch description {
                case .manifest:
                    tried.append("stream")
                    guard StreamManifest.format(of: Array(bytes.prefix(4_096))) != nil else {
                        throw ManifestError(.notAManifest, url: name, "not a manifest")
                    }
                    return "stream"
                case .matroska:
                    tried.append("matroska")
                    guard MatroskaLocator.startsMatroska(bytes) else { throw MatroskaError(.notMatroska, "not Matroska") }
                    return "matroska"
                case .transportStream:
                    tried.append("ts")
                    guard TransportPacketLayout.detect(in: Array(bytes.prefix(4_096))) != nil else {
                        throw TransportStreamError(.notTransportStream, offset: 0, "not a transport stream")
                    }
                    return "ts"
                }
            })
            return Outcome(tried: tried, result: result)
        } catch let error as MP4Error {
            return Outcome(tried: tried, error: "MP4Error.\(error.code)")
        } catch let error as ManifestError {
            return Outcome(tried: tried, error: "ManifestError.\(error.code)")
        } catch let error as MatroskaError {
            return Outcome(tried: tried, error: "MatroskaError.\(error.code)")
        } catch let error as TransportStreamError {
            return Outcome(tried: tried, error: "TransportStreamError.\(error.code)")
        } catch {
            return Outcome(tried: tried, error: "\(error)")
        }
    }

    static func movie() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("h264-faststart"))))
    }
    static let playlist = Array("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n#EXT-X-ENDLIST\n".utf8)
    static let manifest = Array(#"<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011"></MPD>"#.utf8)
    static let text = Array("just some notes\n".utf8)

    @Test func aMovieIsAMovieWhateverItsName() async throws {
        let movie = try Self.movie()
        #expect(await Self.outcome(named: "a.mp4", bytes: movie) == Outcome(tried: ["movie"], result: "movie"))
        #expect(await Self.outcome(named: "https://cdn.example/a", bytes: movie) == Outcome(tried: ["movie"], result: "movie"))
        // Named as a playlist: the stream's reading is tried first, finds no playlist, and the movie is read.
        #expect(await Self.outcome(named: "/media/clip.m3u8?v=2", bytes: movie)
            == Outcome(tried: ["stream", "movie"], result: "movie"))
    }

    @Test func aPlaylistOrManifestIsAStreamWhateverItsName() async {
        #expect(await Self.outcome(named: "index.m3u8", bytes: Self.playlist) == Outcome(tried: ["stream"], result: "stream"))
        #expect(await Self.outcome(named: "live.MPD#t=3", bytes: Self.manifest) == Outcome(tried: ["stream"], result: "stream"))
        // Named otherwise (a key without an extension, a .txt): the movie's reading finds no movie, the head is read.
        #expect(await Self.outcome(named: "objects/7f3a", bytes: Self.playlist) == Outcome(tried: ["movie", "stream"], result: "stream"))
        #expect(await Self.outcome(named: "manifest.txt", bytes: Self.manifest) == Outcome(tried: ["movie", "stream"], result: "stream"))
    }

    @Test func aMatroskaFileIsReadByItsIndexWhateverItsName() async throws {
        let file = try #require(MatroskaReferences.all.first { $0.name.hasSuffix(".webm") }).bytes()
        #expect(await Self.outcome(named: "clip.webm", bytes: file) == Outcome(tried: ["matroska"], result: "matroska"))
        #expect(await Self.outcome(named: "https://cdn.example/a.MKV?sig=1", bytes: file)
            == Outcome(tried: ["matroska"], result: "matroska"))
        // Named otherwise (a Matroska file named .mp4, a key): the movie's reading finds no movie, the head is read.
        #expect(await Self.outcome(named: "upload.mp4", bytes: file) == Outcome(tried: ["movie", "matroska"], result: "matroska"))
        // Named as Matroska but a movie: the Matroska reading finds no EBML header, and the movie is read.
        #expect(await Self.outcome(named: "clip.mkv", bytes: try Self.movie()) == Outcome(tried: ["matroska", "movie"], result: "movie"))
        #expect(await Self.outcome(named: "notes.webm", bytes: Self.text)
            == Outcome(tried: ["matroska", "movie"], error: "MatroskaError.notMatroska"))
    }

    @Test func aTransportStreamFileIsReadByItsEndsWhateverItsName() async throws {
        let file = try #require(TransportReferences.all.first { $0.name.hasSuffix(".m2ts") }).bytes()
        #expect(await Self.outcome(named: "00001.MTS", bytes: file) == Outcome(tried: ["ts"], result: "ts"))
        #expect(await Self.outcome(named: "https://cdn.example/rec.ts?sig=1", bytes: file) == Outcome(tried: ["ts"], result: "ts"))
        // Named otherwise: the movie's reading finds no movie, the head is read.
        #expect(await Self.outcome(named: "upload.mp4", bytes: file) == Outcome(tried: ["movie", "ts"], result: "ts"))
        // Named as TS but a movie, or neither.
        #expect(await Self.outcome(named: "clip.ts", bytes: try Self.movie()) == Outcome(tried: ["ts", "movie"], result: "movie"))
        #expect(await Self.outcome(named: "notes.ts", bytes: Self.text)
            == Outcome(tried: ["ts", "movie"], error: "TransportStreamError.notTransportStream"))
    }

    @Test func neitherGivesTheErrorOfTheReadingItsNameChose() async {
        #expect(await Self.outcome(named: "notes.txt", bytes: Self.text) == Outcome(tried: ["movie"], error: "MP4Error.notAMovie"))
        #expect(await Self.outcome(named: "notes.m3u8", bytes: Self.text)
            == Outcome(tried: ["stream", "movie"], error: "ManifestError.notAManifest"))
    }

    @Test func otherErrorsAreNotReconsidered() async {
        let input = CustomInput(key: "a.mp4") { MemoryByteSource(Self.playlist) }
        var streamRan = false
        await #expect(throws: MP4Error.self) {
            try await input.readingMedia(asMovie: { throw MP4Error(.malformed, path: "moov", offset: 8, "cut short") },
                                         asStream: { _ in streamRan = true })
        }
        #expect(!streamRan)
        let named = CustomInput(key: "a.m3u8") { MemoryByteSource(Self.playlist) }
        var movieRan = false
        await #expect(throws: ManifestError.self) {
            try await named.readingMedia(asMovie: { movieRan = true }, asStream: { _ in throw ManifestError(.malformed, url: nil, "bad") })
        }
        #expect(!movieRan)
    }
}
