import ArgumentParser
import Foundation
import Thumbs

/// The options that say which frame a thumbnail shows and how it looks: `thumbs thumbnail`'s and `thumbs batch`'s.
struct ThumbnailFlags: ParsableArguments {
    @OptionGroup var when: TimeOption

    @Option(help: "Time as a percentage of the duration.")
    var percent: Double?

    @Option(help: "Frame number in presentation order (decoded exactly).")
    var frame: Int?

    @Flag(help: "The newest keyframe: of a live HLS or DASH stream, the last of its newest segment; of a movie or a stream that has ended, its last.")
    var latest = false

    @Flag(help: "The keyframe that makes the best poster among --candidates spread over the movie (its first and last 5 % left out): near-black, flat, blurred and fading pictures lose. With --stats, each candidate's time and score.")
    var best = false

    @Option(help: "How many keyframes --best chooses among, 1-100 (default 10).")
    var candidates: Int?

    @Option(name: .customLong("max-size"), help: "Largest size: N bounds the longer side, WxH a box (0 leaves a side free).")
    var maxSize: String?

    @Option(help: "How the picture fits the box: fit, fill, pad or stretch.")
    var fit: String = "fit"

    @Option(help: "With --fit fill, which part is kept: centre, or smart (the part with the most detail, colour and skin).")
    var crop: String = "centre"

    @Option(help: "With --fit fill, keep the part around X,Y (fractions 0-1 of the upright picture's width and height).")
    var focus: String?

    @Flag(help: "The exact frame on screen at the time (tolerance zero), decoded from the keyframe before it.")
    var exact = false

    @Option(name: .customLong("tolerance-before"), help: "Seconds before the time the frame may be (inf: any).")
    var toleranceBefore: Double?

    @Option(name: .customLong("tolerance-after"), help: "Seconds after the time the frame may be (inf: any).")
    var toleranceAfter: Double?

    @OptionGroup var transform: TransformOption

    @Option(help: "Output format: png, jpeg, webp or avif (thumbnail: default from the file name, else png; batch: png).")
    var format: String?

    @Option(help: "JPEG, lossy WebP or lossy AVIF quality, 1-100 (default: 85; AVIF 72).")
    var quality: Int?

    @Flag(help: "Lossless WebP or AVIF (every pixel of an 8-bit picture kept) instead of lossy.")
    var lossless = false

    @Flag(name: .customLong("skip-dark"), help: "Move to the next keyframe when the frame is near-black or flat.")
    var skipDark = false

    @Flag(name: .customLong("keep-hdr"), help: "Keep HDR signal values (PQ or HLG, tagged) in a 16-bit PNG or a 10-bit AVIF instead of tone-mapping.")
    var keepHDR = false

    func validate() throws {
        if [when.time != nil, percent != nil, frame != nil, latest, best].filter({ $0 }).count > 1 {
            throw ValidationError("give at most one of --time, --percent, --frame, --latest and --best")
        }
        if let percent, !(0...100).contains(percent) { throw ValidationError("--percent must be between 0 and 100") }
        if let frame, frame < 0 { throw ValidationError("--frame must not be negative") }
        if let candidates {
            guard best else { throw ValidationError("--candidates is for --best") }
            guard (1...BestFramePlan.maximumCount).contains(candidates) else {
                throw ValidationError("--candidates must be between 1 and \(BestFramePlan.maximumCount)")
            }
        }
        if best, exact || toleranceBefore != nil || toleranceAfter != nil || skipDark {
            throw ValidationError("--best chooses among keyframes by their score: it takes no --exact, tolerance or --skip-dark")
        }
        if maxSize != nil, (try? parsedMaximumSize()) == nil { throw ValidationError("--max-size takes N or WxH, like 320 or 320x180") }
        if parsedFit == nil { throw ValidationError("--fit takes fit, fill, pad or stretch") }
        if !["centre", "center", "smart"].contains(crop.lowercased()) { throw ValidationError("--crop takes centre or smart") }
        if focus != nil, parsedFocus == nil { throw ValidationError("--focus takes X,Y, two fractions from 0 to 1, like 0.3,0.5") }
        if focus != nil, crop.lowercased() == "smart" { throw ValidationError("give --crop smart or --focus, not both") }
        if (focus != nil || crop.lowercased() == "smart"), parsedFit != .fill {
            throw ValidationError("--crop and --focus choose what --fit fill keeps; give --fit fill")
        }
        if let quality, !(1...100).contains(quality) { throw ValidationError("--quality must be between 1 and 100") }
        if let format, ImageFormat(named: format, quality: quality) == nil {
            throw ValidationError("--format takes png, jpeg, webp or avif")
        }
        for tolerance in [toleranceBefore, toleranceAfter] {
            if let tolerance, !(tolerance >= 0) { throw ValidationError("tolerances must be non-negative seconds") }
        }
    }

    /// Refuses `--lossless` unless the picture is written as `formatName`'s WebP or AVIF.
    func checkLossless(writtenAs formatName: String) throws {
        if lossless, !["webp", "avif"].contains(ImageFormat(named: formatName, quality: quality, lossless: lossless)?.name) {
            throw ValidationError("--lossless is for WebP and AVIF output")
        }
    }

    private var parsedFit: RenderOptions.FitMode? {
        switch fit.lowercased() {
        case "fit": .fit
        case "fill": .fill
        case "pad": .pad
        case "stretch": .stretch
        default: nil
        }
    }

    /// `--focus X,Y`: two fractions 0...1.
    private var parsedFocus: FillWindow? { focus.flatMap { FillWindow(focus: $0) } }

    /// `N` (the longer side, so NxN) or `WxH`.
    private func parsedMaximumSize() throws -> PixelSize {
        guard let maxSize else { return PixelSize(width: 0, height: 0) }
        let parts = maxSize.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        if parts.count == 1, let side = Int(parts[0]), side >= 0 { return PixelSize(width: side, height: side) }
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width >= 0, height >= 0 else {
            throw ValidationError("bad --max-size")
        }
        return PixelSize(width: width, height: height)
    }

    /// The image format `formatName` names, with `--quality` and `--lossless` (PNG for a name that is none).
    func imageFormat(named formatName: String) -> ImageFormat {
        ImageFormat(named: formatName, quality: quality, lossless: lossless) ?? .png
    }

    /// The thumbnail options the flags ask for, encoding in `format` (nil: the picture alone).
    func thumbnailOptions(format: ImageFormat?) throws -> ThumbnailOptions {
        var options = ThumbnailOptions()
        options.maximumSize = try parsedMaximumSize()
        options.fitMode = parsedFit ?? .fit
        if let parsedFocus {
            options.fillWindow = parsedFocus
        } else if crop.lowercased() == "smart" {
            options.fillWindow = .subject
        }
        options.appliesPreferredTrackTransform = transform.appliesPreferredTrackTransform
        options.format = format
        options.skipsDarkFrames = skipDark
        if let candidates { options.bestFrameCandidateCount = candidates }
        options.keepsHDR = keepHDR
        if exact {
            options.requestedTimeToleranceBefore = .zero
            options.requestedTimeToleranceAfter = .zero
        }
        if let toleranceBefore { options.requestedTimeToleranceBefore = .limit(seconds: toleranceBefore) }
        if let toleranceAfter { options.requestedTimeToleranceAfter = .limit(seconds: toleranceAfter) }
        return options
    }

    /// The time the flags ask for (nil: the default); `--latest` of a movie is its end (its last keyframe).
    var requestedTime: ThumbnailTime? {
        if let seconds = when.time { .seconds(seconds) } else if let percent { .fraction(percent / 100) }
            else if let frame { .frame(frame) } else if latest { .latest } else if best { .best } else { nil }
    }
}
