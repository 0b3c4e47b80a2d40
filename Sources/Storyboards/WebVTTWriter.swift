/// Writes a storyboard as a WebVTT thumbnail track: one cue per interval, each naming its image, with
/// `#xywh=x,y,w,h` for a region of a sheet (not for single images).
///
/// ```
/// WEBVTT
///
/// 00:00:00.000 --> 00:00:05.000
/// storyboard-1.jpg#xywh=0,0,160,90
/// ```
///
/// References are relative (the bare file name), so the track and its images move together.
public enum WebVTTWriter {
    /// The text of the track (UTF-8, `\n` line ends, a blank line after every cue).
    public static func write(_ storyboard: Storyboard) -> String {
        var text = "WEBVTT\n\n"
        text.reserveCapacity(64 * (storyboard.cues.count + 1))
        for cue in storyboard.cues {
            text += WebVTTTimestamp.format(cue.timeRange.lowerBound) + " --> " + WebVTTTimestamp.format(cue.timeRange.upperBound) + "\n"
            let file = storyboard.sheets.indices.contains(cue.sheet) ? storyboard.sheets[cue.sheet].fileName : ""
            if storyboard.singleImages {
                text += file + "\n\n"
            } else {
                text += "\(file)#xywh=\(cue.region.x),\(cue.region.y),\(cue.region.width),\(cue.region.height)\n\n"
            }
        }
        return text
    }
}
