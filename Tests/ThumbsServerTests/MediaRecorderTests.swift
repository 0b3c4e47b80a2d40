import ByteSources
import Foundation
import MP4BoxTestSupport
import Testing
import Thumbs

/// What a web app that takes recordings holds: WebM written by a real browser's MediaRecorder (Debian's headless
/// chromium: VP8 or VP9, no Cues, no Duration, a Segment of unknown size), recorded here from a canvas animation
/// (Fixtures/matroska/record.html, the page Fixtures/matroska/record-chromium.py records the committed ones with).
/// The oracle is what the page drew: a background of one colour a second (red, green, blue, ...).
@Suite(.enabled(if: WebDriver.isInstalled, "chromium and chromium-driver are not installed"))
struct MediaRecorderTests {
    static let page = Fixtures.directory.appendingPathComponent("matroska/record.html")
    /// The backgrounds the page draws, second by second.
    static let colours: [[Int]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0], [0, 255, 255], [255, 0, 255]]

    /// A recording of `seconds` of the page by chromium's MediaRecorder as `mime`.
    static func record(_ mime: String, seconds: Double) async throws -> [UInt8] {
        try await WebDriver.with(width: 400, height: 300) { browser in
            try await browser.open(page.absoluteString)
            try await browser.run("window.record(arguments[0], arguments[1])", [mime, seconds])
            guard try await browser.wait(seconds: seconds + 30, until: "return typeof window.result === 'string'") else {
                throw WebDriver.Failure(description: "the recording did not end")
            }
            let text = try #require(try await browser.run("return window.result") as? String)
            return [UInt8](try #require(Data(base64Encoded: text)))
        }
    }

    /// The colour of the pixel at (10, 10): the background, which the moving square never covers (a recording of
    /// an opaque canvas may still carry an alpha plane, nearly opaque after its coding: the picture is then `.rgba8`).
    static func background(_ image: RGBImage) -> [Int] {
        Array(image.pixel(x: 10, y: 10).prefix(3))
    }

    @Test(arguments: ["video/webm;codecs=vp8", "video/webm;codecs=vp9"])
    func firstAndMiddlePicturesShowWhatThePageDrew(_ mime: String) async throws {
        let bytes = try await Self.record(mime, seconds: 5)
        let input = CustomInput(key: "recording.webm") { MemoryByteSource(bytes) }
        var options = ThumbnailOptions()
        options.requestedTimeToleranceBefore = .zero
        options.requestedTimeToleranceAfter = .zero
        let pictures = try await Media.withMedia(of: input) { media in
            let generator = ThumbnailGenerator(media: media, options: options)
            return [try await generator.image(at: .seconds(0)), try await generator.image(at: .seconds(2.5))]
        }
        // Red in the first second, blue in the third; the colours survive the encoding within a few levels.
        for (picture, expected) in zip(pictures, [Self.colours[0], Self.colours[2]]) {
            #expect(picture.image.width == 320 && picture.image.height == 240)
            let found = Self.background(picture.image)
            #expect(zip(found, expected).allSatisfy { abs($0 - $1) <= 24 }, "\(mime) at \(picture.actualTime) s: \(found), drawn \(expected)")
        }
        // The frame on screen at 2.5 s: the last before it (a busy machine may drop a few; still in the third second).
        #expect(pictures[1].actualTime > 2.0 && pictures[1].actualTime <= 2.5, "\(mime): \(pictures[1].actualTime) s")
    }
}
