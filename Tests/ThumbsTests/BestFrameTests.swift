import ByteSources
import FrameDecode
import MP4Box
import MP4BoxTestSupport
import Testing
@testable import Thumbs

/// `ThumbnailTime.best` on a movie made of known stretches (`Fixtures/make-fixtures.sh`, section 20: black 0-2 s,
/// a flat colour 2-4 s, a picture blurred 4-6 s, the same picture sharp 6-8 s, faded to 30 % 8-10 s, blurred again
/// 10-12 s), with ffprobe's packet list for where the keyframes are.
@Suite struct BestFrameTests {
    static let name = "best-frame-stretches"

    static func generator(source: (any ByteSource)? = nil,
                          _ change: (inout ThumbnailOptions) -> Void = { _ in }) throws -> ThumbnailGenerator {
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 160, height: 160)
        change(&options)
        if let source { return ThumbnailGenerator(source: source, options: options) }
        return try ThumbnailGenerator(path: Fixtures.path(name), options: options)
    }

    /// ffprobe's keyframes: presentation time in seconds, byte range.
    static func keyframes() throws -> [(time: Double, range: Range<UInt64>)] {
        let expected = try Fixtures.expectation(name)
        let scale = Double(try #require(expected.timescale))
        return expected.packets.filter(\.key).map { (Double($0.pts) / scale, $0.pos..<$0.pos + UInt64($0.size)) }
            .sorted { $0.time < $1.time }
    }

    /// The keyframe ffprobe lists nearest each of `count` times spread over 5-95 % of 12 s, the earlier on a tie.
    static func expectedCandidates(count: Int) throws -> [(time: Double, range: Range<UInt64>)] {
        let keyframes = try keyframes()
        var chosen: [Double: Range<UInt64>] = [:]
        for part in 0..<count {
            let time = 12 * (0.05 + 0.9 * (Double(part) + 0.5) / Double(count))
            let nearest = try #require(keyframes.min { abs($0.time - time) < abs($1.time - time) })
            chosen[nearest.time] = nearest.range
        }
        return chosen.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    @Test func theSharpStretchWins() async throws {
        let thumbnail = try await Self.generator().image(at: .best)
        #expect((6.0..<8.0).contains(thumbnail.actualTime), "chose \(thumbnail.actualTime) s")
        #expect(thumbnail.isSyncSample)
        #expect(thumbnail.decodedSamples == thumbnail.candidates.count + 1)  // each candidate, and the pick again
        #expect(thumbnail.requestedTime == thumbnail.actualTime)
        #expect(thumbnail.image.width == 160 && thumbnail.image.height == 90)
        let chosen = thumbnail.candidates.filter(\.isChosen)
        #expect(chosen.count == 1 && chosen.first?.time == thumbnail.actualTime)
    }

    /// Every keyframe considered is ffprobe's nearest to its spread time, in order, each with a score; those of the black
    /// and flat stretches are refused as such, the others not; the faded and blurred ones score below every sharp one.
    @Test func theCandidatesAreTheSpreadKeyframesAndEachStretchScoresAsItLooks() async throws {
        let thumbnail = try await Self.generator().image(at: .best)
        let expected = try Self.expectedCandidates(count: 10)
        #expect(thumbnail.candidates.map(\.time) == expected.map(\.time))
        let sharp = thumbnail.candidates.filter { (6.0..<8.0).contains($0.time) }
        #expect(!sharp.isEmpty)
        let weakestSharp = try #require(sharp.compactMap(\.score?.value).min())
        let bluntestSharp = try #require(sharp.compactMap(\.score?.sharpnessTerm).min())
        let dimmestSharp = try #require(sharp.compactMap(\.score?.exposureTerm).min())
        for candidate in thumbnail.candidates {
            let score = try #require(candidate.score, "no score at \(candidate.time) s: \(candidate.failure ?? "")")
            switch candidate.time {
            case ..<2: #expect(score.rejection == .nearBlack, "\(candidate.time) s")
            case 2..<4: #expect(score.rejection == .flat, "\(candidate.time) s")
            case 6..<8: #expect(score.rejection == nil, "\(candidate.time) s")
            case 8..<10:  // faded
                #expect(score.rejection == nil && score.value < weakestSharp, "\(candidate.time) s")
                #expect(score.exposureTerm < dimmestSharp, "\(candidate.time) s")
            default:  // blurred
                #expect(score.rejection == nil && score.value < weakestSharp, "\(candidate.time) s")
                #expect(score.sharpnessTerm < bluntestSharp, "\(candidate.time) s")
            }
        }
    }

    /// Only the candidates' keyframes are read: with the index given, the reads are their byte ranges as ffprobe gives
    /// them, nothing else.
    @Test func onlyTheCandidateKeyframesAreRead() async throws {
        let bytes = try Fixtures.bytes(Self.name)
        let movie = try await MovieLocator().locate(in: MemoryByteSource(bytes)).movie
        let source = RecordingByteSource(MemoryByteSource(bytes))
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 160, height: 160)
        _ = try await ThumbnailGenerator(source: source, options: options, movie: movie).image(at: .best)
        let expected = try Self.expectedCandidates(count: 10).map(\.range)
        #expect(await source.ranges.sorted { $0.lowerBound < $1.lowerBound } == expected)
    }

    @Test func theSameMovieGivesTheSamePickEveryTime() async throws {
        let first = try await Self.generator().image(at: .best)
        let second = try await Self.generator().image(at: .best)
        #expect(first.actualMediaTime == second.actualMediaTime)
        #expect(first.candidates == second.candidates)
        #expect(first.encoded == second.encoded)
    }

    /// Asked for more candidates than the movie has keyframes in its middle 90 %, each of those keyframes is
    /// considered once; asked for one, the keyframe nearest the middle.
    @Test func theCountOfCandidatesIsBoundedByTheKeyframes() async throws {
        let many = try await Self.generator { $0.bestFrameCandidateCount = 100 }.image(at: .best)
        let expected = try Self.expectedCandidates(count: 100)
        #expect(many.candidates.map(\.time) == expected.map(\.time))
        #expect(expected.count < 100)
        #expect((6.0..<8.0).contains(many.actualTime))
        let one = try await Self.generator { $0.bestFrameCandidateCount = 1 }.image(at: .best)
        let middle = try Self.expectedCandidates(count: 1)
        #expect(one.candidates.map(\.time) == middle.map(\.time))
    }

    @Test func aCountOutsideOneToAHundredIsAnInvalidOption() async throws {
        for count in [0, -1, 101] {
            let error = await #expect(throws: ThumbnailError.self) {
                try await Self.generator { $0.bestFrameCandidateCount = count }.image(at: .best)
            }
            #expect(error?.code == .invalidOption)
        }
    }

    /// A movie whose every keyframe is black (by ffmpeg's filters too) still gets its picture: the best of the refused
    /// ones.
    @Test func aMovieWithOnlyRefusedKeyframesStillGetsOne() async throws {
        let looks = try #require(try MediaCorpus.realWorld.keyframeLooks()["gst-av1-only.mp4"])
        #expect(!looks.isEmpty && looks.allSatisfy(\.isNearBlackOrFlat))
        let thumbnail = try await ThumbnailGenerator(path: MediaCorpus.realWorld.path("gst-av1-only.mp4")).image(at: .best)
        #expect(!thumbnail.candidates.isEmpty)
        #expect(thumbnail.candidates.allSatisfy { $0.score?.rejection != nil })
        #expect(thumbnail.candidates.contains { $0.isChosen && $0.time == thumbnail.actualTime })
    }

    /// Whatever order the decodes finish in, the kept candidate is the same: the best score, the earliest of equals.
    @Test func thePickDoesNotDependOnTheOrderDecodesFinish() {
        let good = FrameScore(meanLuma: 0.45, lumaDeviation: 0.2, darkShare: 0, laplacianVariance: 500, colourfulness: 40, entropy: 7)
        let black = FrameScore(meanLuma: 0, lumaDeviation: 0, darkShare: 1, laplacianVariance: 0, colourfulness: 0, entropy: 0)
        let scores = [black, good, good, black]  // by position: the first good one, at 1, is the pick
        func permutations(_ items: [Int]) -> [[Int]] {
            items.count <= 1 ? [items] : items.indices.flatMap { index in
                var rest = items
                let first = rest.remove(at: index)
                return permutations(rest).map { [first] + $0 }
            }
        }
        for order in permutations(Array(scores.indices)) {
            var kept = order[0]
            for position in order.dropFirst()
            where ThumbnailGenerator.replaces(scores[kept], at: kept, scores[position], at: position) {
                kept = position
            }
            #expect(kept == 1, "order \(order)")
        }
    }

    /// Groups of candidates hold at most the bound of bytes (one larger keyframe alone), in order, each once: checked
    /// against ffprobe's sizes of the candidates.
    @Test func fetchGroupsStayWithinTheirBytes() async throws {
        let movie = try await MovieLocator().locate(in: MemoryByteSource(try Fixtures.bytes(Self.name))).movie
        let plan = try BestFramePlan(track: try movie.thumbnailTrack(), count: 10)
        let sizes = try Self.expectedCandidates(count: 10).map { Int($0.range.count) }
        #expect(plan.keyframes.map { Int($0.sample.size) } == sizes)
        for bound in [1, 5_000, 10_000, 40_000, 1 << 20] {
            let groups = plan.fetchGroups(maximumBytes: bound)
            #expect(groups.flatMap { Array($0) } == Array(sizes.indices), "bound \(bound)")
            for group in groups {
                let bytes = group.reduce(0) { $0 + sizes[$1] }
                #expect(group.count == 1 || bytes <= bound, "bound \(bound): \(group) holds \(bytes)")
                // A group ends only where the next keyframe would pass the bound.
                if group.upperBound < sizes.count { #expect(bytes + sizes[group.upperBound] > bound, "bound \(bound)") }
            }
        }
    }

    /// A movie whose candidate keyframes are all refused by the decoder (their samples zeroed) gives the earliest
    /// one's error, naming its sample.
    @Test func whenEveryCandidateFailsTheEarliestOnesErrorIsThrown() async throws {
        var bytes = try Fixtures.bytes(Self.name)
        let candidates = try Self.expectedCandidates(count: 10)
        for candidate in candidates {
            for offset in candidate.range { bytes[Int(offset)] = 0 }
        }
        let movie = try await MovieLocator().locate(in: MemoryByteSource(bytes)).movie
        let first = try #require(try BestFramePlan(track: try movie.thumbnailTrack(), count: 10).keyframes.first)
        #expect(first.sample.byteRange == candidates[0].range)
        do {
            let thumbnail = try await ThumbnailGenerator(source: MemoryByteSource(bytes), movie: movie).image(at: .best)
            Issue.record("a picture at \(thumbnail.actualTime) s from zeroed keyframes")
        } catch let error as DecodeError {
            #expect(error.sampleIndex == first.sample.index, "\(error)")
        } catch let error as ThumbnailError where error.code == .noFrame {  // the decoder took the bytes, gave nothing
            #expect(error.sample == first.sample.index, "\(error)")
        } catch {
            Issue.record("not the decoder's error for the first candidate: \(error)")
        }
    }

    /// Of a stream, the candidates are the segments playing at the spread times, each once, each by the keyframe that
    /// starts it: the HLS cut of the stretches movie (`Fixtures/streams/ffmpeg-hls-fmp4-best-frame-stretches`, segment
    /// starts from its EXTINF lines) gives the segment from 7.68 s, the only one starting in the sharp stretch.
    @Test func aStreamsBestIsTheSegmentStartingInTheSharpStretch() async throws {
        let folder = Fixtures.directory.appendingPathComponent("streams/ffmpeg-hls-fmp4-best-frame-stretches")
        let playlist = try String(contentsOf: folder.appendingPathComponent("index.m3u8"), encoding: .utf8)
        var starts: [Double] = [0]
        for line in playlist.split(separator: "\n") where line.hasPrefix("#EXTINF:") {
            starts.append(starts[starts.count - 1] + (Double(line.dropFirst(8).prefix { $0 != "," }) ?? 0))
        }
        let end = starts.removeLast()
        // The segment playing at each spread time of 5-95 %, each once.
        var expected: [Double] = []
        for part in 0..<10 {
            let time = end * (0.05 + 0.9 * (Double(part) + 0.5) / 10)
            let start = try #require(starts.last { $0 <= time })
            if expected.last != start { expected.append(start) }
        }
        let made = try await ThumbnailGenerator(media: .stream(StreamSession(input: FileInput(path: folder.appendingPathComponent("index.m3u8").path))))
            .image(at: .best)
        #expect(made.candidates.map(\.time).map { ($0 * 100).rounded() / 100 } == expected)
        #expect(made.actualTime == 7.68)
        #expect(made.candidates.filter(\.isChosen).map(\.time) == [7.68])
        #expect(made.candidates.allSatisfy { $0.segment != nil && $0.sample == nil && $0.score != nil })
        #expect(try made.position.segment.timeRange.lowerBound == .milliseconds(7680))
    }

    /// A single-frame movie: its one keyframe.
    @Test func aSingleFrameIsItsOwnBest() async throws {
        let thumbnail = try await ThumbnailGenerator(path: Fixtures.path("one-frame")).image(at: .best)
        #expect(thumbnail.actualTime == 0)
        #expect(thumbnail.candidates.count == 1)
    }
}

/// The measures of `FrameScore` on pictures whose answer is known by construction.
@Suite struct FrameScoreTests {
    /// A 64x64 picture whose pixel (x, y) is `colour(x, y)`.
    static func image(_ colour: (Int, Int) -> (UInt8, UInt8, UInt8)) -> RGBImage {
        var pixels: [UInt8] = []
        for y in 0..<64 {
            for x in 0..<64 {
                let (r, g, b) = colour(x, y)
                pixels += [r, g, b]
            }
        }
        return RGBImage(width: 64, height: 64, pixelFormat: .rgb8, pixels: pixels)
    }

    /// Coloured squares of 8 pixels, shaded across, with a fine stripe pattern: sharp, varied and colourful.
    static let detailed = image { x, y in
        let square = (x / 8 + y / 8) % 4
        let stripe = (x + y) % 2 == 0 ? 40 : 0
        let base: [(Int, Int, Int)] = [(150, 40, 30), (30, 120, 50), (40, 50, 150), (140, 130, 40)]
        let (r, g, b) = base[square]
        let shade = x + y / 2
        return (UInt8(min(255, r + shade + stripe)), UInt8(min(255, g + shade + stripe)), UInt8(min(255, b + shade + stripe)))
    }

    /// `picture` averaged over the 7x7 pixels around each (fewer at the edges): a blur.
    static func blurred(_ picture: RGBImage) -> RGBImage {
        image { x, y in
            var sums = [0, 0, 0]
            var count = 0
            for v in max(0, y - 3)...min(63, y + 3) {
                for u in max(0, x - 3)...min(63, x + 3) {
                    let pixel = picture.pixel(x: u, y: v)
                    for channel in 0..<3 { sums[channel] += pixel[channel] }
                    count += 1
                }
            }
            return (UInt8(sums[0] / count), UInt8(sums[1] / count), UInt8(sums[2] / count))
        }
    }

    @Test func blackIsNearBlackAndGreyIsFlat() {
        #expect(FrameScore(image: Self.image { _, _ in (0, 0, 0) }).rejection == .nearBlack)
        #expect(FrameScore(image: Self.image { _, _ in (20, 20, 20) }).rejection == .nearBlack)
        #expect(FrameScore(image: Self.image { _, _ in (128, 128, 128) }).rejection == .flat)
        #expect(FrameScore(image: Self.image { _, _ in (250, 250, 250) }).rejection == .blownOut)
        #expect(FrameScore(image: Self.detailed).rejection == nil)
    }

    /// 98 % of the pixels under 32 is near-black even when a few are bright (a title's letters on black).
    @Test func aFewBrightPixelsOnBlackAreStillNearBlack() {
        let letters = FrameScore(image: Self.image { x, y in y == 30 && x < 40 ? (255, 255, 255) : (0, 0, 0) })
        #expect(letters.darkShare >= 0.98)
        #expect(letters.rejection == .nearBlack)
    }

    @Test func theMeasuresOfAKnownPicture() throws {
        // Half the pixels 0, half 255 in a checkerboard: mean 0.5, deviation 0.5, one bit of entropy, the Laplacian
        // +-4 x 255 everywhere inside (variance (4 x 255)^2), no colour.
        let board = FrameScore(image: Self.image { x, y in (x + y) % 2 == 0 ? (0, 0, 0) : (255, 255, 255) })
        #expect(abs(board.meanLuma - 0.5) < 1e-9)
        #expect(abs(board.lumaDeviation - 0.5) < 1e-9)
        #expect(abs(board.entropy - 1) < 1e-9)
        #expect(abs(board.laplacianVariance - 1020 * 1020) < 1e-6)
        #expect(board.colourfulness < 1e-9)
        // Pure red: rg = 255, yb = 127.5, no spread: M = 0.3 x sqrt(255^2 + 127.5^2).
        let red = FrameScore(image: Self.image { _, _ in (255, 0, 0) })
        #expect(abs(red.colourfulness - 0.3 * (255.0 * 255 + 127.5 * 127.5).squareRoot()) < 1e-9)
    }

    /// A fade of a picture and a blur of it lose to it; any picture beats a refused one.
    @Test func fadesAndBlursLose() {
        let sharp = FrameScore(image: Self.detailed)
        let faded = FrameScore(image: RGBImage(width: 64, height: 64, pixelFormat: .rgb8,
                                               pixels: Self.detailed.pixels.map { UInt8(Double($0) * 0.3) }))
        let blurred = FrameScore(image: Self.blurred(Self.detailed))
        #expect(sharp.isBetter(than: faded))
        #expect(sharp.isBetter(than: blurred))
        #expect(sharp.sharpnessTerm > blurred.sharpnessTerm)
        let black = FrameScore(image: Self.image { _, _ in (0, 0, 0) })
        #expect(faded.isBetter(than: black) && !black.isBetter(than: faded))
    }

    /// An RGBA or 16-bit picture scores as the 8-bit picture it holds.
    @Test func everyPixelFormatScoresAlike() {
        let rgb = Self.detailed
        var rgba: [UInt8] = []
        var wide: [UInt8] = []
        for pixel in stride(from: 0, to: rgb.pixels.count, by: 3) {
            rgba += rgb.pixels[pixel..<pixel + 3] + [255]
            for sample in rgb.pixels[pixel..<pixel + 3] { wide += [0x80, sample] }
        }
        let expected = FrameScore(image: rgb)
        #expect(FrameScore(image: RGBImage(width: 64, height: 64, pixelFormat: .rgba8, pixels: rgba)) == expected)
        #expect(FrameScore(image: RGBImage(width: 64, height: 64, pixelFormat: .rgb16, pixels: wide)) == expected)
    }
}
