import ByteSources
import Matroska
import MP4Box
import StreamManifests
import TransportStream

/// The one rule that tells a movie from a stream (an HLS playlist or a DASH manifest), from a Matroska or WebM file
/// (read as a stream of its cue points' spans) and from a bare MPEG transport stream file (read as a stream of one
/// segment), for every job and every caller: content first, name second. The name only says which reading is tried
/// first, so a movie costs no read more than its own, a playlist none more than its text and a Matroska or TS file
/// none more than its index or its ends:
/// - an input whose name ends in `.m3u8`, `.m3u` or `.mpd` (before any query or fragment) is read as a stream; when
///   its text is no playlist or manifest (`ManifestError` `notAManifest`), as a movie, and if that fails too, the
///   stream's error is thrown;
/// - an input whose name ends in `.mkv`, `.webm`, `.mk3d` or `.mka` is read as Matroska; when it is not
///   (`MatroskaError` `notMatroska`), as a movie, and if that fails too, the Matroska error is thrown;
/// - an input whose name ends in `.ts`, `.m2ts`, `.mts`, `.m2t`, `.tts` or `.trp` is read as a transport stream;
///   when it is not (`TransportStreamError` `notTransportStream`: no sync byte recurring at 188, 192 or 204 bytes),
///   as a movie, and if that fails too, the transport stream's error is thrown;
/// - any other input is read as a movie; when it is not one (`MP4Error` `notAMovie`) and its first 4 KiB are a
///   playlist, a manifest, an EBML header or transport stream packets (one more read), as a stream, as Matroska or
///   as a transport stream.
extension MovieInput {
    /// `movie()` or `stream(_:)`, whichever the input holds, told by the rule above; each runs at most once, on the
    /// caller's actor, `stream` with what describes the stream.
    /// - Throws: what the reading the input holds throws; for an input that is none of them, the error of the reading
    ///   its name chose, unless another reading failed otherwise (a network error, a damaged movie): then that error.
    public func readingMedia<Result>(isolation: isolated (any Actor)? = #isolation,
                                     asMovie movie: () async throws -> Result,
                                     asStream stream: (StreamSession.Description) async throws -> Result) async throws -> Result {
        if let named = describedByName {
            do {
                return try await stream(named)
            } catch where Self.says(error, isNot: named) {
                do {
                    return try await movie()
                } catch let notAMovie as MP4Error where notAMovie.code == .notAMovie {
                    throw error
                }
            }
        }
        do {
            return try await movie()
        } catch let error as MP4Error where error.code == .notAMovie {
            guard let description = await describedByHead() else { throw error }
            return try await stream(description)
        }
    }

    /// Whether the name says HLS playlist or DASH manifest: `.m3u8`, `.m3u` or `.mpd` before any query or fragment.
    var namesStream: Bool { hasSuffix(in: [".m3u8", ".m3u", ".mpd"]) }

    /// What the name says the input is, when not a movie: a playlist or manifest, a Matroska file, a transport stream.
    private var describedByName: StreamSession.Description? {
        if namesStream { return .manifest }
        if hasSuffix(in: Self.matroskaSuffixes) { return .matroska }
        if hasSuffix(in: Self.transportStreamSuffixes) { return .transportStream }
        return nil
    }

    /// Whether `error` is the reading of `description` finding that the input is not what it reads.
    private static func says(_ error: any Error, isNot description: StreamSession.Description) -> Bool {
        switch description {
        case .manifest: (error as? ManifestError)?.code == .notAManifest
        case .matroska: (error as? MatroskaError)?.code == .notMatroska
        case .transportStream: (error as? TransportStreamError)?.code == .notTransportStream
        }
    }

    /// The names of Matroska files.
    static var matroskaSuffixes: [String] { [".mkv", ".webm", ".mk3d", ".mka"] }

    /// The names of transport stream files: broadcast recordings, Blu-ray and AVCHD camcorder files.
    static var transportStreamSuffixes: [String] { [".ts", ".m2ts", ".mts", ".m2t", ".tts", ".trp"] }

    /// Whether the name (before any query or fragment) ends in one of `suffixes`, in any case.
    private func hasSuffix(in suffixes: [String]) -> Bool {
        let path = name.split(whereSeparator: { $0 == "?" || $0 == "#" }).first.map(String.init) ?? name
        let lowered = path.lowercased()
        return suffixes.contains { lowered.hasSuffix($0) }
    }

    /// What the first 4 KiB say the input is, when a stream: an HLS playlist or a DASH manifest, an EBML header, or
    /// transport stream packets (one read, counted as the work's); nil when they are none of these or cannot be read.
    private func describedByHead() async -> StreamSession.Description? {
        guard let source = try? open(known: nil), let head = try? await CountingByteSource(source).read(0 ..< 4_096) else {
            return nil
        }
        if MatroskaLocator.startsMatroska(head) { return .matroska }
        if TransportPacketLayout.detect(in: head) != nil { return .transportStream }
        return StreamManifest.format(of: head) != nil ? .manifest : nil
    }
}
