/// Writes a storyboard as a DASH MPD with one image AdaptationSet of thumbnail tiles (DASH-IF Interoperability
/// Points 4.3, 6.2.6): `contentType="image"`, a Representation whose width and height are a full sheet's and whose
/// `EssentialProperty` `http://dashif.org/thumbnail_tile` gives the grid (columns x rows), and a SegmentTemplate
/// whose `$Number$` names the sheets, timed by a SegmentTimeline in milliseconds.
///
/// DASH spreads a segment's duration evenly over all the tiles of the grid, so every segment is given the span of a
/// full sheet (the last one may reach past the end of the presentation, which players cut at
/// `mediaPresentationDuration`). A storyboard whose sheets a byte cap cut short cannot be described that way and
/// is refused. Merge the AdaptationSet into the video's own MPD, or serve this one beside it.
public enum DASHThumbnailWriter {
    /// The MPD text (UTF-8 XML).
    /// - Throws: `StoryboardError` `invalidOption` when a sheet other than the last holds fewer tiles than a full grid.
    public static func write(_ storyboard: Storyboard) throws(StoryboardError) -> String {
        let perSheet = storyboard.singleImages ? 1 : storyboard.columns * storyboard.rows
        guard storyboard.sheets.dropLast().allSatisfy({ $0.tileCount == perSheet }) else {
            throw StoryboardError(.invalidOption, "DASH thumbnail tiles need every sheet but the last full, and a byte cap cut "
                                  + "sheets short: write HLS, WebVTT or JSON for this storyboard")
        }
        let (product, overflow) = storyboard.interval.nearestMilliseconds.multipliedReportingOverflow(by: Int64(perSheet))
        let segment = overflow ? Int64.max : product
        let (width, height) = storyboard.singleImages
            ? (storyboard.tileSize.width, storyboard.tileSize.height)
            : (storyboard.tileSize.width * storyboard.columns, storyboard.tileSize.height * storyboard.rows)
        let bytes = storyboard.sheets.reduce(0) { $0 + Int64($1.byteCount) }
        let bandwidth = max(1, bytes * 8 * 1000 / max(1, storyboard.duration.nearestMilliseconds))
        let grid = storyboard.singleImages ? "1x1" : "\(storyboard.columns)x\(storyboard.rows)"
        let repeats = storyboard.sheets.count - 1
        let duration = "PT" + Storyboard.seconds(storyboard.duration) + "S"
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" type="static" \
            mediaPresentationDuration="\(duration)" minBufferTime="PT2S">
              <Period id="0" start="PT0S">
                <AdaptationSet id="1" contentType="image" mimeType="\(XMLEscaping.escaped(storyboard.format.mediaType))">
                  <SegmentTemplate media="\(XMLEscaping.escaped(mediaTemplate(storyboard.sheetTemplate)))" timescale="1000" \
            startNumber="\(storyboard.firstSheetIndex)">
                    <SegmentTimeline>
                      <S t="0" d="\(segment)"\(repeats > 0 ? " r=\"\(repeats)\"" : "")/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                  <Representation id="thumbnails" bandwidth="\(bandwidth)" width="\(width)" height="\(height)">
                    <EssentialProperty schemeIdUri="http://dashif.org/thumbnail_tile" value="\(grid)"/>
                  </Representation>
                </AdaptationSet>
              </Period>
            </MPD>

            """
    }

    /// The sheet template with `$index$` as DASH's `$Number$`, and any other `$` doubled as DASH escapes it.
    static func mediaTemplate(_ template: String) -> String {
        template.split(separator: "$index$", omittingEmptySubsequences: false).map { $0.replacing("$", with: "$$") }
            .joined(separator: "$Number$")
    }
}
