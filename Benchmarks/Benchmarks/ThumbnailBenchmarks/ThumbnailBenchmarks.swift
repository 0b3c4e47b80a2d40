import Benchmark
import ByteSources
import Foundation
import FrameDecode
import MP4Box
import Thumbs

/// Benchmark media made by Benchmarks/media/make-media.sh (not committed).
let mediaDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(".media")

func mediaPath(_ name: String) -> String? {
    let path = mediaDirectory.appendingPathComponent(name).path
    return FileManager.default.fileExists(atPath: path) ? path : nil
}

/// A decoded keyframe and what made it, loaded once per medium.
struct Stage: Sendable {
    let track: MovieTrack
    let plan: FramePlan
    let bytes: [Int: [UInt8]]
    let frame: DecodedFrame
    let image: RGBImage

    init(path: String) async throws {
        let source = try FileByteSource(path: path)
        let movie = try await MovieLocator().locate(in: source).movie
        guard let track = movie.primaryVideoTrack else { throw ThumbnailError(.noVideo, path) }
        self.track = track
        plan = try FramePlanner.plan(track: track, time: track.presentationTime(seconds: track.durationSeconds / 2),
                                     selection: .nearestKeyframe)
        bytes = try await SampleFetcher.fetch(plan.samples, from: source)
        let decoder = try VideoDecoderFactory.makeDecoder(for: track)
        var frames = try decoder.decode(DecoderInput(sample: plan.target, bytes: bytes[plan.target.index] ?? []))
        frames += try decoder.flush()
        guard let frame = frames.first else { throw ThumbnailError(.noFrame, path) }
        self.frame = frame
        image = try Renderer.render(frame, options: RenderOptions(track: track, maximumSize: PixelSize(width: 320, height: 320)))
    }
}

func load(_ name: String) -> Stage? {
    guard let path = mediaPath(name) else { return nil }
    let box = StageBox()
    let semaphore = DispatchSemaphore(value: 0)
    Task {
        box.stage = try? await Stage(path: path)
        semaphore.signal()
    }
    semaphore.wait()
    return box.stage
}

/// Carries a loaded stage out of the loading task.
/// `@unchecked Sendable`: written once by the loading task before the semaphore is signalled, read after the wait.
final class StageBox: @unchecked Sendable {
    var stage: Stage?
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal],
                                           maxDuration: .seconds(5), maxIterations: 200)
    for (name, label) in [("h264-1080p-60s-faststart.mp4", "1080p H.264"), ("hevc-4k-3s.mp4", "4K HEVC"),
                          ("h264-4k-3s.mp4", "4K H.264"), ("hevc-1080p-10s.mp4", "1080p HEVC")] {
        guard let path = mediaPath(name), let stage = load(name) else { continue }
        Benchmark("thumbnail \(label), file, 320 px PNG (whole)") { benchmark in
            for _ in benchmark.scaledIterations {
                var options = ThumbnailOptions()
                options.maximumSize = PixelSize(width: 320, height: 320)
                let generator = try ThumbnailGenerator(path: path, options: options)
                blackHole(try await generator.image(at: .fraction(0.5)))
            }
        }
        Benchmark("\(label): index (locate + parse moov)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try await MovieLocator().locate(in: FileByteSource(path: path)))
            }
        }
        Benchmark("\(label): fetch keyframe") { benchmark in
            let source = try FileByteSource(path: path)
            for _ in benchmark.scaledIterations {
                blackHole(try await SampleFetcher.fetch(stage.plan.samples, from: source))
            }
        }
        Benchmark("\(label): decode keyframe") { benchmark in
            for _ in benchmark.scaledIterations {
                let decoder = try VideoDecoderFactory.makeDecoder(for: stage.track)
                var frames = try decoder.decode(DecoderInput(sample: stage.plan.target, bytes: stage.bytes[stage.plan.target.index] ?? []))
                frames += try decoder.flush()
                blackHole(frames)
            }
        }
        Benchmark("\(label): plan (time to samples)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try FramePlanner.plan(track: stage.track, time: stage.track.presentationTime(seconds: stage.track.durationSeconds / 3),
                                                selection: .exact))
            }
        }
        Benchmark("\(label): render to 320 px (scale + colour + rotate)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try Renderer.render(stage.frame, options: RenderOptions(track: stage.track, maximumSize: PixelSize(width: 320, height: 320))))
            }
        }
        Benchmark("\(label): encode PNG 320 px") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try PNGEncoder().encode(stage.image)) }
        }
        Benchmark("\(label): encode JPEG 320 px") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try JPEGEncoder(quality: 85).encode(stage.image)) }
        }
    }
    // 100 thumbnails through one ThumbnailService with a cold cache: 20 fixtures (and the 1080p medium when
    // present) at 5 times each, all requested at once, as a list of videos would.
    let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    let fixturePaths = ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? [])
        .filter { $0.hasSuffix(".mp4") && $0 != "audio-only.mp4" }.sorted().prefix(20).map { fixtures.appendingPathComponent($0).path }
    if fixturePaths.count == 20 {
        Benchmark("batch of 100 thumbnails through ThumbnailService, cold cache") { benchmark in
            for _ in benchmark.scaledIterations {
                let service = ThumbnailService()
                var options = ThumbnailOptions()
                options.maximumSize = PixelSize(width: 160, height: 160)
                let requests = fixturePaths.flatMap { path in
                    [0.0, 0.25, 0.5, 0.75, 1.0].map { ThumbnailRequest(asset: .file(path), time: .fraction($0), options: options) }
                }
                try await withThrowingTaskGroup(of: Thumbnail.self) { group in
                    for request in requests { group.addTask { try await service.thumbnail(request) } }
                    for try await thumbnail in group { blackHole(thumbnail) }
                }
            }
        }
    }
    if let path = mediaPath("h264-2h-720p.mp4") {
        Benchmark("2-hour movie: locate + parse the index") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try await MovieLocator().locate(in: FileByteSource(path: path)))
            }
        }
    }
    if let path = mediaPath("h264-10min-faststart.mp4") {
        Benchmark("10-minute movie: locate + parse the index") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try await MovieLocator().locate(in: FileByteSource(path: path)))
            }
        }
    }
}
