import ByteSources
import MP4Box
import StreamManifests

/// The one rule that tells a movie from a stream (an HLS playlist or a DASH manifest), for every job and every caller:
/// content first, name second. The name only says which reading is tried first, so a movie costs no read more than
/// its own and a playlist none more than its text:
/// - an input whose name ends in `.m3u8`, `.m3u` or `.mpd` (before any query or fragment) is read as a stream; when
///   its text is no playlist or manifest (`ManifestError` `notAManifest`), as a movie, and if that fails too, the
///   stream's error is thrown;
/// - any other input is read as a movie; when it is not one (`MP4Error` `notAMovie`) and its first 4 KiB are a
///   playlist or a manifest (one more read), as a stream.
extension MovieInput {
    /// `movie()` or `stream()`, whichever the input holds, told by the rule above; each runs at most once, on the
    /// caller's actor.
    /// - Throws: what the reading the input holds throws; for an input that is neither, the error of the reading its
    ///   name chose, unless the other reading failed otherwise (a network error, a damaged movie): then that error.
    public func readingMedia<Result>(isolation: isolated (any Actor)? = #isolation,
                                     asMovie movie: () async throws -> Result,
                                     asStream stream: () async throws -> Result) async throws -> Result {
        if namesStream {
            do {
                return try await stream()
            } catch let notAManifest as ManifestError where notAManifest.code == .notAManifest {
                do {
                    return try await movie()
                } catch let error as MP4Error where error.code == .notAMovie {
                    throw notAManifest
                }
            }
        }
        do {
            return try await movie()
        } catch let error as MP4Error where error.code == .notAMovie {
            guard await startsWithManifest() else { throw error }
            return try await stream()
        }
    }

    /// Whether the name says HLS playlist or DASH manifest: `.m3u8`, `.m3u` or `.mpd` before any query or fragment.
    var namesStream: Bool {
        let path = name.split(whereSeparator: { $0 == "?" || $0 == "#" }).first.map(String.init) ?? name
        let lowered = path.lowercased()
        return [".m3u8", ".m3u", ".mpd"].contains { lowered.hasSuffix($0) }
    }

    /// Whether the first 4 KiB are an HLS playlist or a DASH manifest (one read, counted as the work's); false when
    /// they cannot be read.
    private func startsWithManifest() async -> Bool {
        guard let source = try? open(known: nil), let head = try? await CountingByteSource(source).read(0 ..< 4_096) else {
            return false
        }
        return StreamManifest.format(of: head) != nil
    }
}
