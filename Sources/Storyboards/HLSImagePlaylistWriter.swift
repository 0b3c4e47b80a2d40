/// Writes a storyboard as an HLS Image Media Playlist (the image playlist extension of RFC 8216 that Apple TV, Roku
/// and Shaka read): `#EXT-X-IMAGES-ONLY`, and one segment per sheet with its `#EXTINF` span and, for sprite sheets,
/// `#EXT-X-TILES` with the tile size (RESOLUTION), the sheet's grid (LAYOUT, columns x rows) and each tile's
/// DURATION.
///
/// ```
/// #EXTM3U
/// #EXT-X-VERSION:7
/// #EXT-X-TARGETDURATION:400
/// #EXT-X-PLAYLIST-TYPE:VOD
/// #EXT-X-IMAGES-ONLY
/// #EXT-X-TILES:RESOLUTION=160x90,LAYOUT=10x10,DURATION=4.000
/// #EXTINF:400.000,
/// storyboard-1.jpg
/// #EXT-X-ENDLIST
/// ```
///
/// A player finds the tile for time t in the segment holding t, at index (t - segment start) / DURATION, counted
/// along the rows. Sheets a byte cap cut short keep that rule: each segment says its own LAYOUT and span. References
/// are relative, so the playlist and its images move together; a master playlist names it with
/// `#EXT-X-IMAGE-STREAM-INF`.
public enum HLSImagePlaylistWriter {
    /// The playlist text (UTF-8, `\n` line ends).
    public static func write(_ storyboard: Storyboard) -> String {
        let times = storyboard.sheetTimes
        // RFC 8216 4.3.3.1: every EXTINF, rounded to the nearest integer, is at most the target duration.
        let target = times.map { span -> Int64 in
            let milliseconds = (span.upperBound - span.lowerBound).nearestMilliseconds
            return milliseconds / 1000 + (milliseconds % 1000 >= 500 ? 1 : 0)
        }.max() ?? 1
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:\(max(1, target))\n#EXT-X-MEDIA-SEQUENCE:0\n"
            + "#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-IMAGES-ONLY\n"
        for (index, sheet) in storyboard.sheets.enumerated() {
            if !storyboard.singleImages {
                let layout = storyboard.layout(ofSheet: index)
                text += "#EXT-X-TILES:RESOLUTION=\(storyboard.tileSize.width)x\(storyboard.tileSize.height),"
                    + "LAYOUT=\(layout.columns)x\(layout.rows),DURATION=\(Storyboard.seconds(storyboard.interval))\n"
            }
            text += "#EXTINF:\(Storyboard.seconds(times[index].upperBound - times[index].lowerBound)),\n\(sheet.fileName)\n"
        }
        return text + "#EXT-X-ENDLIST\n"
    }
}
