import Foundation

/// A live DASH manifest of a SegmentTemplate without a SegmentTimeline or an end, over shaka 7401's 2 s segments
/// (`Fixtures/streams/shaka-7401`), available from 2024-02-29T12:00:00Z: a stream whose segments are found by the
/// clock alone. Written into a directory of its own, removed by `remove()`.
public struct LiveTemplateManifest {
    /// The manifest's path.
    public let path: String
    private let directory: URL

    /// When the stream became available.
    public static let availabilityStart = "2024-02-29T12:00:00Z"

    /// Writes the manifest.
    public init() throws {
        let folder = Fixtures.repositoryRoot.appendingPathComponent("Fixtures/streams/shaka-7401").path
        let manifest = """
            <MPD type="dynamic" availabilityStartTime="\(Self.availabilityStart)" minimumUpdatePeriod="PT2S">
              <Period start="PT0S"><AdaptationSet mimeType="video/mp4">
                <SegmentTemplate timescale="15360" duration="30720" startNumber="1"
                                 initialization="\(folder)/init-stream0.m4s" media="\(folder)/chunk-stream0-$Number%05d$.m4s"/>
                <Representation id="0" bandwidth="122012" width="1280" height="720"/>
              </AdaptationSet></Period>
            </MPD>
            """
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("live.mpd").path
        try manifest.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Removes the manifest and its directory.
    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
