import Foundation

/// The track files players read beside a storyboard's images: WebVTT, JSON, an HLS image playlist, a DASH manifest,
/// BIF (which the maker writes with the images, when `StoryboardOptions.bifFileName` names it).
extension Storyboard {
    /// The track files `writeTracks(_:into:)` knows: `vtt`, `json`, `hls`, `dash`, `bif`.
    public static let trackFileKinds = ["vtt", "json", "hls", "dash", "bif"]

    /// Writes the track files `kinds` names (of `trackFileKinds`; BIF is already there, written by the maker) into
    /// `directory`: `storyboard.vtt`, `.json`, `.m3u8`, `.mpd`; their paths, `storyboard.bif`'s too.
    /// - Throws: the file system's error; `StoryboardError` when the DASH manifest cannot be written.
    public func writeTracks(_ kinds: [String], into directory: URL) throws -> [String] {
        var written: [String] = []
        for kind in kinds {
            if kind == "bif" {  // written by the maker, through `write`, after the sheets
                written.append(directory.appendingPathComponent("storyboard.bif").path)
                continue
            }
            let (name, text): (String, String) = switch kind {
            case "json": ("storyboard.json", String(decoding: try manifest.json(), as: UTF8.self))
            case "hls": ("storyboard.m3u8", hlsImagePlaylist())
            case "dash": ("storyboard.mpd", try dashManifest())
            default: ("storyboard.vtt", webVTT())
            }
            let path = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: path)
            written.append(path.path)
        }
        return written
    }
}
