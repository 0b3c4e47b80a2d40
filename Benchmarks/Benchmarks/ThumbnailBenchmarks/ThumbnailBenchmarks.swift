import Benchmark
import FrameDecode
import Foundation
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
    let track: Track
    let plan: FramePlan
    let bytes: [Int: [UInt8]]
    let frame: DecodedFrame
    let image: Image

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
    if let path = mediaPath("h264-10min-faststart.mp4") {
        Benchmark("10-minute movie: locate + parse the index") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try await MovieLocator().locate(in: FileByteSource(path: path)))
            }
        }
    }
}
