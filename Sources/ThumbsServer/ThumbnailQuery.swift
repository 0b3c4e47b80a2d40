import Thumbs

/// What `/thumbnail.png|.jpg|.webp|.avif` (or `/thumbnail`, its format named by `format=` or negotiated) asks for: a
/// time (`time=` seconds, `latest` for the newest picture of a live stream, or `best` for the keyframe that makes the
/// best poster; or `percent=` of the duration; the library's default when neither), a box (`width`, `height`; never
/// upscaled), `fit` (with `fit=fill`, `crop=smart` or `focus=x,y` for the part kept), `exact=1`, and `quality` (JPEG,
/// lossy WebP and AVIF) or `lossless=1` (WebP, AVIF).
struct ThumbnailQuery {
    /// The parameters the route knows.
    static let names: Set<String> = ["url", "path", "time", "percent", "width", "height", "fit", "exact", "quality", "lossless",
                                     "format", "crop", "focus"]
    /// The formats by the name `format=` and the routes' extensions give them.
    static let formats = ["png": "png", "jpg": "jpg", "jpeg": "jpg", "webp": "webp", "avif": "avif"]
    /// The largest width or height asked for.
    static let maximumSide = 4_096

    var time: ThumbnailTime?
    var options: ThumbnailOptions
    /// The parameters that shape the picture, in one order with defaults filled in: part of the entity tag.
    var canonical: String

    /// Reads `parameters` for an image of `format` (`png`, `jpg`, `webp` or `avif`).
    /// - Throws: `ServerError` `badParameter`.
    init(_ parameters: QueryParameters, format: String) throws(ServerError) {
        let named: ThumbnailTime? = switch parameters.string("time") {
        case "latest": .latest
        case "best": .best
        default: nil
        }
        let seconds = named != nil ? nil : try parameters.double("time", in: 0...1e9)
        let percent = try parameters.double("percent", in: 0...100)
        if (seconds != nil || named != nil) && percent != nil {
            throw ServerError(.badParameter, parameter: "percent", "give time or percent, not both")
        }
        time = if let named { named } else if let seconds { .seconds(seconds) } else if let percent { .fraction(percent / 100) }
            else { nil }
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: try parameters.int("width", in: 0...Self.maximumSide) ?? 0,
                                        height: try parameters.int("height", in: 0...Self.maximumSide) ?? 0)
        options.fitMode = try parameters.choice("fit", ["fit": .fit, "fill": .fill, "pad": .pad, "stretch": .stretch]) ?? .fit
        let window = try Self.fillWindow(parameters)
        if window != .centre, options.fitMode != .fill {
            throw ServerError(.badParameter, parameter: parameters.string("focus") != nil ? "focus" : "crop",
                              "crop and focus choose the part fit=fill keeps; give fit=fill")
        }
        options.fillWindow = window
        let exact = try parameters.flag("exact")
        if exact {
            options.requestedTimeToleranceBefore = .zero
            options.requestedTimeToleranceAfter = .zero
        }
        let lossless = try parameters.flag("lossless")
        let quality = try parameters.int("quality", in: 1...100)
        switch format {
        case "jpg":
            guard !lossless else { throw ServerError(.badParameter, parameter: "lossless", "lossless is for webp and avif") }
            options.format = .jpeg(quality: quality ?? 85)
        case "webp":
            options.format = .webp(quality: quality ?? 80, lossless: lossless)
        case "avif":
            options.format = .avif(quality: quality ?? ImageFormat.defaultAVIFQuality, lossless: lossless)
        default:  // PNG, lossless whether asked or not
            guard quality == nil else { throw ServerError(.badParameter, parameter: "quality", "quality is for jpg, webp and avif") }
            options.format = .png
        }
        self.options = options
        let timeText = named.map(\.description) ?? seconds.map { "t\($0)" } ?? percent.map { "p\($0)" } ?? "default"
        canonical = [format, timeText, "\(options.maximumSize.width)x\(options.maximumSize.height)", "\(options.fitMode)",
                     exact ? "exact" : "nearest", "q\(quality ?? 0)", lossless ? "lossless" : "lossy", "\(window)"].joined(separator: ";")
    }

    /// `crop=centre|smart` or `focus=x,y` (fractions 0...1 of the upright picture), not both.
    /// - Throws: `ServerError` `badParameter`.
    private static func fillWindow(_ parameters: QueryParameters) throws(ServerError) -> FillWindow {
        let crop = try parameters.choice("crop", ["centre": FillWindow.centre, "center": .centre, "smart": .subject])
        guard let focus = parameters.string("focus") else { return crop ?? .centre }
        guard crop == nil else { throw ServerError(.badParameter, parameter: "focus", "give crop or focus, not both") }
        guard let window = FillWindow(focus: focus) else {
            throw ServerError(.badParameter, parameter: "focus", "focus takes x,y, two fractions from 0 to 1")
        }
        return window
    }
}
