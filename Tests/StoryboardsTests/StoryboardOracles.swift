import ByteSources
import Foundation
import MP4Box
import MP4BoxTestSupport
import Storyboards
import Synchronization
import Testing
import Thumbs

/// What the storyboard tests check against: the fixtures' ffprobe expectations, ffmpeg's thumbnails, and the
/// rules of a WebVTT thumbnail track. Nothing here is computed by the code under test.
enum StoryboardOracles {
    /// ffprobe's duration of a fixture in whole milliseconds.
    static func durationMilliseconds(_ expectation: FixtureExpectation) -> Int64 {
        Int64(((expectation.duration ?? 0) * 1000).rounded())
    }

    /// `time` in milliseconds, exactly (the storyboard's times are whole milliseconds).
    static func milliseconds(_ time: Duration) -> Int64 {
        let (seconds, attoseconds) = time.components
        #expect(attoseconds % 1_000_000_000_000_000 == 0, "\(time) is not a whole number of milliseconds")
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// The pts (stream time base) of the key packet nearest `time` (whole milliseconds), the earlier one on a tie.
    static func nearestKeyPTS(to time: Duration, in expectation: FixtureExpectation) -> Int64? {
        let milliseconds = milliseconds(time)
        let timescale = Int64(expectation.timescale ?? 1000)
        let keys = expectation.packets.filter(\.key).map(\.pts).sorted()
        // Compare |pts / timescale - ms / 1000| exactly: |pts * 1000 - ms * timescale|.
        return keys.min { lhs, rhs in
            let left = abs(lhs * 1000 - milliseconds * timescale)
            let right = abs(rhs * 1000 - milliseconds * timescale)
            return left == right ? lhs < rhs : left < right
        }
    }

    /// The size of ffprobe's key packet at `pts`.
    static func keyPacketSize(pts: Int64, in expectation: FixtureExpectation) -> UInt64 {
        UInt64(expectation.packets.first { $0.key && $0.pts == pts }?.size ?? 0)
    }

    /// Storyboard options with a cue interval and a grid (and a tile width and format where given), the rest default.
    static func options(interval: Double, columns: Int = 10, rows: Int = 10, tileWidth: Int? = nil,
                        format: ImageFormat? = nil) -> StoryboardOptions {
        var options = StoryboardOptions()
        options.interval = .seconds(interval)
        options.columns = columns
        options.rows = rows
        if let tileWidth { options.tileWidth = tileWidth }
        if let format { options.format = format }
        return options
    }

    /// Makes a storyboard of a fixture from a local file, keeping the images it writes.
    static func make(_ name: String, options: StoryboardOptions, source: (any ByteSource)? = nil,
                     locator: MovieLocator = MovieLocator()) async throws -> (storyboard: Storyboard, files: [String: [UInt8]]) {
        let input = try source ?? FileByteSource(path: Fixtures.path(name))
        var files: [String: [UInt8]] = [:]
        var order: [String] = []
        let storyboard = try await StoryboardMaker(source: input, options: options, locator: locator).make { fileName, bytes in
            files[fileName] = bytes
            order.append(fileName)
        }
        #expect(order == storyboard.sheets.map(\.fileName), "images are written in order, once each")
        return (storyboard, files)
    }

    /// The decoded image of a written file (PNG or JPEG by its name).
    static func decode(_ fileName: String, _ bytes: [UInt8]) throws -> RGBImage {
        try ImageDecoder().decode(bytes)
    }

    /// Checks a WebVTT thumbnail track by rule: every timing line is `HH:MM:SS.mmm --> HH:MM:SS.mmm` (checked by a
    /// regular expression, not our reader); read by `StoryboardTrack`, the cues start at 0, follow each other with
    /// no gap or overlap, and end at `durationMilliseconds`; every region lies inside its decoded image.
    static func validate(webVTT text: String, images: [String: RGBImage], durationMilliseconds: Int64,
                         singleImages: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws -> StoryboardTrack {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "WEBVTT", sourceLocation: sourceLocation)
        let timing = /^\d{2,}:[0-5]\d:[0-5]\d\.\d{3} --> \d{2,}:[0-5]\d:[0-5]\d\.\d{3}$/
        let timingLines = lines.filter { $0.contains("-->") }
        #expect(timingLines.allSatisfy { (try? timing.wholeMatch(in: String($0))) != nil }, sourceLocation: sourceLocation)
        let track = try StoryboardTrack(webVTT: text)
        #expect(track.cues.count == timingLines.count, sourceLocation: sourceLocation)
        let cues = track.cues
        #expect(cues.first?.timeRange.lowerBound == .zero, sourceLocation: sourceLocation)
        #expect(cues.last?.timeRange.upperBound == .milliseconds(durationMilliseconds), sourceLocation: sourceLocation)
        for (previous, next) in zip(cues, cues.dropFirst()) {
            #expect(previous.timeRange.upperBound == next.timeRange.lowerBound, "gap or overlap at \(previous.timeRange)", sourceLocation: sourceLocation)
        }
        for cue in cues {
            #expect(!cue.timeRange.isEmpty, sourceLocation: sourceLocation)
            guard let image = images[cue.reference.url] else {
                Issue.record("cue at line \(cue.line) names \(cue.reference.url), which was not written", sourceLocation: sourceLocation)
                continue
            }
            if singleImages {
                #expect(cue.reference.region == nil, sourceLocation: sourceLocation)
                continue
            }
            guard let region = cue.reference.region else {
                Issue.record("cue at line \(cue.line) has no region", sourceLocation: sourceLocation)
                continue
            }
            #expect(region.x >= 0 && region.y >= 0 && region.x + region.width <= image.width
                    && region.y + region.height <= image.height,
                    "region \(region) of line \(cue.line) is outside the \(image.width)x\(image.height) image",
                    sourceLocation: sourceLocation)
        }
        return track
    }

    /// The region of `image` as its own tightly packed image.
    static func crop(_ image: RGBImage, x: Int, y: Int, width: Int, height: Int) -> RGBImage {
        let packed = image.packed()
        let pixelBytes = packed.pixelFormat.bytesPerPixel
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * pixelBytes)
        for row in y..<y + height {
            let start = row * packed.bytesPerRow + x * pixelBytes
            pixels.append(contentsOf: packed.pixels[start..<start + width * pixelBytes])
        }
        return RGBImage(width: width, height: height, pixelFormat: packed.pixelFormat, pixels: pixels)
    }
}
