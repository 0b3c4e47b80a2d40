import Storyboards
import Thumbs

/// What `/storyboard.vtt|.json` and its sheets ask for: `interval` (seconds between cues; the library's default
/// when absent), `width` (of a tile), `columns` and `rows` (of a sheet), `quality` (JPEG).
struct StoryboardQuery {
    /// The parameters the routes know.
    static let names: Set<String> = ["url", "path", "interval", "width", "columns", "rows", "quality"]

    var options: StoryboardOptions
    /// The parameters that shape the storyboard, in one order with defaults filled in.
    var canonical: String

    /// Reads `parameters`.
    /// - Throws: `ServerError` `badParameter`.
    init(_ parameters: QueryParameters) throws(ServerError) {
        var options = StoryboardOptions()
        options.interval = try parameters.double("interval", in: 0.5...3_600).map { .seconds($0) }
        options.tileWidth = try parameters.int("width", in: 16...640) ?? 160
        options.columns = try parameters.int("columns", in: 1...20) ?? 10
        options.rows = try parameters.int("rows", in: 1...20) ?? 10
        let quality = try parameters.int("quality", in: 1...100) ?? 75
        options.format = .jpeg(quality: quality)
        options.sheetTemplate = "$index$.jpg"
        options.firstSheetIndex = 0
        self.options = options
        canonical = ["i\(options.interval.map { String($0.seconds) } ?? "default")", "w\(options.tileWidth)",
                     "\(options.columns)x\(options.rows)", "q\(quality)"].joined(separator: ";")
    }
}
