import Foundation
import MP4BoxTestSupport
import Testing
@testable import ThumbsServer

/// The page at `/` in a real browser (Debian's headless chromium through chromedriver): thumbnails below the fold are
/// not requested until scrolled to, every thumbnail decodes, and hovering scrubs through the storyboard.
@Suite(.enabled(if: WebDriver.isInstalled, "chromium and chromium-driver are not installed"))
struct PageBrowserTests {
    /// Fixtures every decoder here reads, to fill a media root with.
    static let movies = ["h264-faststart.mp4", "hevc-8bit.mp4", "av1-8bit.mp4", "rotate-90.mp4", "quicktime-h264.mov",
                         "h264-bframes.mp4", "hevc-main10.mp4", "mirrored.mp4", "pasp-anamorphic.mp4", "h264-1080p-crop.mp4"]

    /// A media root of `count` copies of the fixtures, named in order (copies: a link out of the root is refused).
    static func mediaRoot(count: Int) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("thumbs-page-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for index in 0..<count {
            let movie = movies[index % movies.count]
            let ext = (movie as NSString).pathExtension
            try FileManager.default.copyItem(at: Fixtures.directory.appendingPathComponent(movie),
                                             to: root.appendingPathComponent(String(format: "video-%03d.%@", index, ext)))
        }
        return root
    }

    /// A server over `root` (removed after) and a headless chromium of `width` by `height`, given to `body`.
    static func withBrowser(over root: URL, width: Int, height: Int,
                            _ body: @Sendable (RunningServer, WebDriver) async throws -> Void) async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        var configuration = ServerConfiguration()
        configuration.mediaRoot = root.path
        try await RunningServer.with(configuration) { server in
            try await WebDriver.with(width: width, height: height) { browser in try await body(server, browser) }
        }
    }

    /// Chromium asks `/thumbnail` for AVIF (its image and navigation Accept name image/avif) and shows what it gets:
    /// opened alone, the picture's document is `image/avif` and decoded; as an `<img>` of a page, it decodes too.
    @Test func chromiumIsAnsweredInAVIFAndShowsIt() async throws {
        try await Self.withBrowser(over: try Self.mediaRoot(count: 1), width: 420, height: 700) { server, browser in
            try await browser.open(server.base + "/thumbnail?path=video-000.mp4&width=160&time=1")
            #expect(try await browser.run("return document.contentType") as? String == "image/avif")
            #expect(try await browser.wait(seconds: 10, until: "return document.images.length == 1 && document.images[0].naturalWidth == 160"))
            try await browser.open(server.base + "/")
            let shown = try await browser.run("""
                return new Promise(done => {
                  const image = new Image();
                  image.onload = () => done(image.naturalWidth);
                  image.onerror = () => done(-1);
                  image.src = '/thumbnail?path=video-000.mp4&width=160&time=1';
                });
                """) as? Int
            #expect(shown == 160)
        }
    }

    @Test func thePageLoadsThumbnailsLazilyAndScrubsOnHover() async throws {
        // One column of 60 videos (about 13,000 px): far past chromium's lazy-loading distance (at most 8,000 px).
        try await Self.withBrowser(over: try Self.mediaRoot(count: 60), width: 420, height: 700) { server, browser in
            try await browser.open(server.base + "/")
            #expect(try await browser.run("return document.querySelectorAll('img[loading=lazy]').length") as? Int == 60)
            #expect(try await browser.wait(seconds: 30, until: """
                return [...document.images].filter(i => i.getBoundingClientRect().top < innerHeight)
                    .every(i => i.complete && i.naturalWidth > 0)
                """))
            let farBelow = try await browser.run("""
                const requested = new Set(performance.getEntriesByType('resource').map(e => e.name));
                const far = [...document.images].filter(i => i.getBoundingClientRect().top > innerHeight + 9000);
                return { far: far.length, requested: far.filter(i => requested.has(i.src)).length,
                         srcset: [...document.images].every(i => i.srcset.includes(' 1x') && i.srcset.includes(' 2x')) };
                """) as? [String: Any]
            #expect((farBelow?["far"] as? Int ?? 0) > 0)
            #expect(farBelow?["requested"] as? Int == 0)
            #expect(farBelow?["srcset"] as? Bool == true)

            try await browser.run("""
                return new Promise(done => {
                  const step = () => { scrollBy(0, 500); if (innerHeight + scrollY >= document.body.scrollHeight - 2) done(); else setTimeout(step, 50); };
                  step();
                });
                """)
            #expect(try await browser.wait(seconds: 60, until: "return [...document.images].every(i => i.complete && i.naturalWidth > 0)"))
            let decoded = try await browser.run("return [...document.images].filter(i => i.naturalWidth > 0).length") as? Int
            #expect(decoded == 60)

            // Scrubbing: the left and the right of the first picture show earlier and later cues from the sheet.
            try await browser.resize(width: 1100, height: 760)
            try await browser.run("scrollTo(0, 0)")
            let frame = try await browser.element("figure.video .frame")
            try await browser.hover(frame, x: -150, y: 0)
            #expect(try await browser.wait(seconds: 20, until: "return document.querySelector('figure.video').dataset.scrubCue !== undefined"))
            let left = try await browser.run("return Number(document.querySelector('figure.video').dataset.scrubCue)") as? Int
            try await browser.hover(frame, x: 150, y: 0)
            #expect(try await browser.wait(seconds: 5, until: "return Number(document.querySelector('figure.video').dataset.scrubCue) > 0"))
            let right = try await browser.run("return Number(document.querySelector('figure.video').dataset.scrubCue)") as? Int
            #expect(left == 0)
            #expect((right ?? 0) > (left ?? 0))
            let background = try await browser.run("return document.querySelector('figure.video .scrub').style.backgroundImage") as? String
            #expect(background?.contains("/storyboard/0.jpg?path=video-000.mp4") == true)
            #expect(try await browser.wait(seconds: 10, until: """
                return performance.getEntriesByType('resource').some(e => e.name.includes('/storyboard/0.jpg?path=video-000.mp4'))
                """))

            let png = try await browser.screenshot()
            #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            // THUMBS_SCREENSHOT=<file> keeps it (the README's picture is made so).
            if let path = ProcessInfo.processInfo.environment["THUMBS_SCREENSHOT"] { try png.write(to: URL(fileURLWithPath: path)) }
        }
    }

    /// A movie that fades in from black gets its best frame as its poster (its keyframe at 10 % is black: the page's
    /// poster was), measured in the browser by the picture's mean brightness; a movie without video is a "No video"
    /// tile (it was a broken image), with the service's reason as its title.
    @Test func postersAreTheBestFrameAndAMovieWithoutVideoIsATile() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("thumbs-page-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for movie in ["dark-start.mp4", "audio-only.mp4"] {
            try FileManager.default.copyItem(at: Fixtures.directory.appendingPathComponent(movie), to: root.appendingPathComponent(movie))
        }
        try await Self.withBrowser(over: root, width: 800, height: 700) { server, browser in
            try await browser.open(server.base + "/")
            #expect(try await browser.wait(seconds: 30, until: """
                return document.querySelectorAll('.missing').length === 1
                    && [...document.images].every(i => i.complete && i.naturalWidth > 0)
                """))
            let tile = try await browser.run("""
                const tile = document.querySelector('.missing');
                return { text: tile.textContent, title: tile.title, caption: tile.closest('figure').querySelector('figcaption').textContent };
                """) as? [String: Any]
            #expect(tile?["text"] as? String == "No video")
            #expect(tile?["caption"] as? String == "audio-only.mp4")
            #expect((tile?["title"] as? String)?.contains("video") == true, "\(tile ?? [:])")
            // The mean of the poster's pixels, 0...255: black is below 20; testsrc2's picture is near 100.
            let brightness = try await browser.run("""
                const img = document.images[0];
                const canvas = document.createElement('canvas');
                canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
                const context = canvas.getContext('2d');
                context.drawImage(img, 0, 0);
                const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
                let sum = 0;
                for (let i = 0; i < pixels.length; i += 4) sum += (pixels[i] + pixels[i + 1] + pixels[i + 2]) / 3;
                return { mean: sum / (pixels.length / 4), src: img.src };
                """) as? [String: Any]
            #expect((brightness?["src"] as? String)?.contains("time=best") == true)
            #expect((brightness?["mean"] as? Double ?? (brightness?["mean"] as? Int).map(Double.init) ?? 0) > 40, "\(brightness ?? [:])")
        }
    }
}
