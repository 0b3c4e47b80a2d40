import ByteSources
import Foundation
import MP4Box
import MP4BoxTestSupport
import Storyboards
import Synchronization
import Testing
import Thumbs

/// Storyboards of the fixtures: tiles against ffmpeg's frames, the WebVTT by rule, sheets, caps, concurrency.
@Suite struct StoryboardMakerTests {
    /// Fixtures with ffmpeg thumbnails (Fixtures/make-thumbnail-references.sh).
    static let fixtures = ThumbnailReferences.fixtures

    /// Tiles whose keyframe is a frame ffmpeg drew (the first frame, the keyframe nearest the middle) match it:
    /// the tile size is the size ffmpeg's script computed from ffprobe's numbers, and the PSNR is at least 35 dB
    /// (50 dB for the HDR fixtures, as ReferenceThumbnailTests). The cue interval is the middle time, so cue 0
    /// shows the first keyframe and cue 1 the keyframe nearest the middle.
    @Test(arguments: fixtures)
    func tilesMatchFFmpegAndTheTrackValidates(_ name: String) async throws {
        let references = try #require(try FrameReferences.load(name))
        let expectation = try Fixtures.expectation(name)
        let firstReference = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath:
            ThumbnailReferences.path(name, role: "firstFrame")))))
        let options = StoryboardOracles.options(interval: max(0.001, (references.midTime * 1000).rounded() / 1000), columns: 4,
                                                rows: 2, tileWidth: firstReference.width, format: .png)
        let (storyboard, files) = try await StoryboardOracles.make(name, options: options)
        #expect(storyboard.tileSize == PixelSize(width: firstReference.width, height: firstReference.height))

        var images: [String: RGBImage] = [:]
        for (file, bytes) in files { images[file] = try StoryboardOracles.decode(file, bytes) }
        let duration = StoryboardOracles.durationMilliseconds(expectation)
        let track = try StoryboardOracles.validate(webVTT: storyboard.webVTT(), images: images, durationMilliseconds: duration,
                                                   singleImages: false)
        #expect(track.cues.count == storyboard.cues.count)

        let timescale = Double(try #require(expectation.timescale))
        var compared = 0
        for (index, cue) in storyboard.cues.enumerated() {
            // The keyframe shown is the key packet nearest the cue's start (ffprobe).
            let keyPTS = try #require(StoryboardOracles.nearestKeyPTS(to: cue.timeRange.lowerBound, in: expectation))
            #expect(Int64((cue.keyframeTime.seconds * timescale).rounded()) == keyPTS, "\(name) cue \(index)")
            for reference in references.frames where reference.pts == keyPTS && reference.role != "frameAtMid" {
                let expected = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath:
                    ThumbnailReferences.path(name, role: reference.role)))))
                let region = try #require(track.cues[index].reference.region)
                let sheet = try #require(images[track.cues[index].reference.url])
                let tile = StoryboardOracles.crop(sheet, x: region.x, y: region.y, width: region.width, height: region.height)
                #expect(tile.width == expected.width && tile.height == expected.height)
                guard tile.width == expected.width, tile.height == expected.height else { continue }
                let quality = psnr(tile.pixels, expected.packed().pixels)
                #expect(quality >= ThumbnailReferences.threshold(name), "\(name) cue \(index) \(reference.role): \(quality) dB")
                if ProcessInfo.processInfo.environment["THUMBS_PRINT_PSNR"] != nil {
                    print("storyboard psnr \(name) cue \(index) \(reference.role): \(String(format: "%.2f", quality)) dB")
                }
                compared += 1
            }
        }
        #expect(compared >= 1, "\(name): no tile showed a frame ffmpeg drew")
    }

    /// WebP sheets read back by libwebp are the PNG sheets: the same pixels when lossless, the PNG sheet's own WebP
    /// encoding when lossy (no closer to the PNG than a JPEG sheet loses); named `.webp`, and the track validates
    /// against them.
    @Test func webPSheetsAreThePNGSheets() async throws {
        var options = StoryboardOracles.options(interval: 0.5, columns: 3, rows: 2, tileWidth: 96, format: .png)
        let (pngBoard, pngFiles) = try await StoryboardOracles.make("hevc-8bit", options: options)
        for (format, lossless) in [(ImageFormat.webp(quality: 80, lossless: true), true), (.webp(quality: 80, lossless: false), false)] {
            options.format = format
            let (storyboard, files) = try await StoryboardOracles.make("hevc-8bit", options: options)
            #expect(storyboard.cues == pngBoard.cues)
            #expect(files.count == pngFiles.count)
            var images: [String: RGBImage] = [:]
            for (file, bytes) in files {
                #expect(file.hasSuffix(".webp"), "\(file)")
                #expect(Array(bytes[8..<12]) == Array("WEBP".utf8))
                images[file] = try StoryboardOracles.decode(file, bytes)
                let png = try StoryboardOracles.decode(file, try #require(pngFiles[file.replacingOccurrences(of: ".webp", with: ".png")]))
                let webp = try #require(images[file])
                #expect(webp.width == png.width && webp.height == png.height)
                if lossless {
                    #expect(webp == png)
                } else {
                    // The PNG sheet encoded as WebP at the same quality, decoded: the very same pixels. Small tiles of
                    // testsrc2's saturated bars and text lose much in any lossy format (22.4 dB here, a JPEG sheet at
                    // the same quality 22.1 dB), so the WebP sheet must be at least as close as the JPEG one.
                    let encoded = try ImageDecoder().decode(try ImageFormat.webp(quality: 80, lossless: false).encode(png))
                    #expect(webp == encoded)
                    var jpegOptions = options
                    jpegOptions.format = .jpeg(quality: 80)
                    let (_, jpegFiles) = try await StoryboardOracles.make("hevc-8bit", options: jpegOptions)
                    let jpeg = try StoryboardOracles.decode(file, try #require(jpegFiles[file.replacingOccurrences(of: ".webp", with: ".jpg")]))
                    #expect(psnr(webp.pixels, png.pixels) >= psnr(jpeg.pixels, png.pixels) - 0.5,
                            "\(file): WebP \(psnr(webp.pixels, png.pixels)) dB, JPEG \(psnr(jpeg.pixels, png.pixels)) dB")
                }
            }
            _ = try StoryboardOracles.validate(webVTT: storyboard.webVTT(), images: images,
                                               durationMilliseconds: StoryboardOracles.durationMilliseconds(try Fixtures.expectation("hevc-8bit")),
                                               singleImages: false)
        }
    }

    /// The same images and cues whatever the concurrency, so whatever order reads and decodes finish in.
    @Test func outputIsTheSameWhateverTheConcurrency() async throws {
        var options = StoryboardOracles.options(interval: 0.1, columns: 4, rows: 3)
        options.maximumConcurrentFetches = 1
        options.maximumConcurrentDecodes = 1
        let serial = try await StoryboardOracles.make("hevc-8bit", options: options)
        options.maximumConcurrentFetches = 8
        options.maximumConcurrentDecodes = 6
        let parallel = try await StoryboardOracles.make("hevc-8bit", options: options)
        #expect(serial.storyboard == parallel.storyboard)
        #expect(serial.files == parallel.files)
        #expect(serial.storyboard.sheets.count == 3)  // 30 cues, 12 a sheet
    }

    /// Sheets are cut when full; the last one keeps only the rows it uses. The grid parameters alone address
    /// every tile as the WebVTT does.
    @Test func fullSheetsAreCutAndTheGridMatchesTheTrack() async throws {
        let options = StoryboardOracles.options(interval: 0.3, columns: 2, rows: 2)  // 10 cues over 3 s
        let (storyboard, files) = try await StoryboardOracles.make("h264-bframes", options: options)
        #expect(storyboard.cues.count == 10)
        #expect(storyboard.sheets.map(\.tileCount) == [4, 4, 2])
        let sizes = try storyboard.sheets.map { sheet -> PixelSize in
            let image = try StoryboardOracles.decode(sheet.fileName, try #require(files[sheet.fileName]))
            return PixelSize(width: image.width, height: image.height)
        }
        #expect(sizes == [PixelSize(width: 320, height: 240), PixelSize(width: 320, height: 240), PixelSize(width: 320, height: 120)])
        #expect(storyboard.sheets.map(\.fileName) == ["storyboard-1.jpg", "storyboard-2.jpg", "storyboard-3.jpg"])

        let fromVTT = try StoryboardTrack(webVTT: storyboard.webVTT())
        let manifest = try JSONDecoder().decode(StoryboardManifest.self, from: JSONEncoder().encode(storyboard.manifest))
        #expect(manifest == storyboard.manifest)
        #expect(manifest.uniformGrid && manifest.sheetCount == 3 && manifest.tileCount == 10)
        let fromGrid = try StoryboardTrack(manifest: manifest)
        #expect(fromGrid.cues.map(\.reference) == fromVTT.cues.map(\.reference))
        for tenth in 0...31 {
            #expect(fromGrid.tile(at: .milliseconds(100 * tenth)) == fromVTT.tile(at: .milliseconds(100 * tenth)))
        }
    }

    /// A byte cap starts a new sheet before the estimate passes it; then the grid cannot address tiles.
    @Test func byteCapStartsNewSheets() async throws {
        var options = StoryboardOptions()
        options.interval = .milliseconds(250)
        let uncapped = try await StoryboardOracles.make("h264-bframes", options: options)
        #expect(uncapped.storyboard.sheets.count == 1)
        options.maximumSheetBytes = uncapped.storyboard.sheets[0].byteCount / 3
        let (capped, files) = try await StoryboardOracles.make("h264-bframes", options: options)
        #expect(capped.sheets.count >= 3)
        #expect(capped.sheets.reduce(0) { $0 + $1.tileCount } == 12)
        for sheet in capped.sheets where sheet.tileCount > 1 {
            #expect(sheet.byteCount <= options.maximumSheetBytes ?? 0, "\(sheet.fileName) has \(sheet.byteCount) bytes")
        }
        var images: [String: RGBImage] = [:]
        for (file, bytes) in files { images[file] = try StoryboardOracles.decode(file, bytes) }
        _ = try StoryboardOracles.validate(webVTT: capped.webVTT(), images: images, durationMilliseconds: 3000, singleImages: false)
        #expect(!capped.manifest.uniformGrid)
        #expect { try StoryboardTrack(manifest: capped.manifest) } throws: { ($0 as? StoryboardError)?.code == .invalidGrid }
    }

    /// `singleImages`: one image per cue, cues without regions; cues sharing a keyframe get the same picture.
    @Test func singleImagesHaveOneImagePerCue() async throws {
        var options = StoryboardOptions()
        options.interval = .milliseconds(200)  // 15 cues, 7 keyframes
        options.singleImages = true
        options.format = .png
        let (storyboard, files) = try await StoryboardOracles.make("h264-faststart", options: options)
        #expect(storyboard.cues.count == 15 && files.count == 15 && storyboard.sheets.count == 15)
        #expect(storyboard.keyframeCount == 7)
        let text = storyboard.webVTT()
        #expect(!text.contains("#"))
        var images: [String: RGBImage] = [:]
        for (file, bytes) in files { images[file] = try StoryboardOracles.decode(file, bytes) }
        let track = try StoryboardOracles.validate(webVTT: text, images: images, durationMilliseconds: 3000, singleImages: true)
        #expect(track.cues.map(\.reference.url) == (1...15).map { "storyboard-\($0).png" })
        for (lhs, rhs) in zip(storyboard.cues, storyboard.cues.dropFirst()) where lhs.keyframeSample == rhs.keyframeSample {
            #expect(files[storyboard.sheets[lhs.sheet].fileName] == files[storyboard.sheets[rhs.sheet].fileName])
        }
        let grid = try StoryboardTrack(manifest: storyboard.manifest)
        #expect(grid.cues.map(\.reference) == track.cues.map(\.reference))
    }

    /// With cues denser than keyframes, each distinct keyframe is read once, by its own range (ffprobe's pos and
    /// size), and nothing else is read but the index; keyframes inside the ends the index read came with are not
    /// read again.
    @Test func eachKeyframeIsReadOnceAndNothingElse() async throws {
        let name = "h264-faststart"
        let expectation = try Fixtures.expectation(name)
        // Ends of 16 KiB, so that most keyframes of the 84 KB file lie between them.
        var locatorOptions = MovieLocator.Options()
        locatorOptions.headSize = 16 * 1024
        locatorOptions.tailSize = 16 * 1024
        let locator = MovieLocator(options: locatorOptions)
        let indexSource = RecordingByteSource(try FileByteSource(path: Fixtures.path(name)))
        let located = try await locator.locate(in: indexSource)
        let indexReads = await indexSource.ranges
        let held = located.heldBytes.spans.map(\.range)

        let source = RecordingByteSource(try FileByteSource(path: Fixtures.path(name)))
        var options = StoryboardOptions()
        options.interval = .milliseconds(40)  // 75 cues, one a frame
        let (storyboard, _) = try await StoryboardOracles.make(name, options: options, source: source, locator: locator)
        #expect(storyboard.cues.count == 75)
        let keyPTS = Set(storyboard.cues.compactMap { StoryboardOracles.nearestKeyPTS(to: $0.timeRange.lowerBound, in: expectation) })
        let keyRanges = expectation.packets.filter { $0.key && keyPTS.contains($0.pts) }.map { $0.pos..<$0.pos + UInt64($0.size) }
        #expect(keyRanges.count == storyboard.keyframeCount)
        let unheld = keyRanges.filter { key in !held.contains { $0.lowerBound <= key.lowerBound && key.upperBound <= $0.upperBound } }
        #expect(unheld.count < keyRanges.count && !unheld.isEmpty)
        let reads = await source.ranges
        let sampleReads = Array(reads.dropFirst(indexReads.count))
        #expect(Set(reads.prefix(indexReads.count)) == Set(indexReads))  // the ends are read side by side
        // Each keyframe the ends do not hold whole is read once, from where the held bytes stop (its start may be in
        // the head) to its end.
        let rests = unheld.map { $0.lowerBound + UInt64(located.heldBytes.prefix(of: $0).count)..<$0.upperBound }
        #expect(sampleReads.sorted { $0.lowerBound < $1.lowerBound } == rests.sorted { $0.lowerBound < $1.lowerBound })
    }

    @Test func progressReachesEveryCue() async throws {
        let reports = Mutex<[StoryboardProgress]>([])
        var options = StoryboardOptions()
        options.interval = .milliseconds(500)
        let maker = StoryboardMaker(source: try FileByteSource(path: Fixtures.path("hevc-main10")), options: options)
        let storyboard = try await maker.make(progress: { progress in reports.withLock { $0.append(progress) } }) { _, _ in }
        let seen = reports.withLock { $0 }
        #expect(!seen.isEmpty)
        #expect(seen.last?.cuesDone == storyboard.cues.count && seen.last?.keyframesDone == storyboard.keyframeCount)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.cuesDone <= $1.cuesDone && $0.bytesFetched <= $1.bytesFetched })
        #expect((seen.last?.bytesFetched ?? 0) >= storyboard.keyframeBytes)
    }

    @Test func audioOnlyHasNoVideo() async throws {
        await #expect { try await StoryboardOracles.make("audio-only", options: StoryboardOptions()) } throws: {
            ($0 as? ThumbnailError)?.code == .noVideo
        }
    }

    @Test func writeFailuresStopTheWork() async throws {
        struct Full: Error {}
        let maker = StoryboardMaker(source: try FileByteSource(path: Fixtures.path("h264-bframes")))
        await #expect(throws: Full.self) { try await maker.make { _, _ in throw Full() } }
    }
}
