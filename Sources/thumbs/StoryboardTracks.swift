import Foundation
import Storyboards

/// The track files players read beside a storyboard's images: WebVTT, JSON, an HLS image playlist, a DASH manifest,
/// BIF (which the maker writes with the images).
enum StoryboardTracks {
    /// The tracks `--manifests` may name.
    static let names = ["vtt", "json", "hls", "dash", "bif"]

    /// Writes the tracks `names` names into `directory` (BIF is already there); their paths.
    /// - Throws: the file system's error.
    static func write(_ names: [String], of storyboard: Storyboard, into directory: URL) throws -> [String] {
        var written: [String] = []
        for manifest in names {
            if manifest == "bif" {  // written by the maker, through `write`, after the sheets
                written.append(directory.appendingPathComponent("storyboard.bif").path)
                continue
            }
            let (name, text): (String, String) = switch manifest {
            case "json": ("storyboard.json", String(decoding: try storyboard.manifest.json(), as: UTF8.self))
            case "hls": ("storyboard.m3u8", storyboard.hlsImagePlaylist())
            case "dash": ("storyboard.mpd", try storyboard.dashManifest())
            default: ("storyboard.vtt", storyboard.webVTT())
            }
            let path = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: path)
            written.append(path.path)
        }
        return written
    }
}
