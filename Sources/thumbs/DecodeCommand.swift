import ArgumentParser
import FrameDecode
import Foundation
import MP4Box
import Thumbs

/// `thumbs decode`: the raw decoded planes of one frame, as ffmpeg's `-f rawvideo` writes them.
struct DecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Write the decoded planes of one frame, cropped, as raw video (yuv420p, yuv420p10le, ...)."
    )

    @OptionGroup var source: InputOptions

    @OptionGroup var when: TimeOption

    @Flag(help: "Decode the frame on screen at the time, from the keyframe before it, instead of the nearest keyframe.")
    var exact = false

    @Option(name: .shortAndLong, help: "Where to write the raw planes, or - for standard output.")
    var output: String

    func run() async throws {
        try await source.withOpenedSource { input in
            let session = MovieSession(source: input, locator: source.locator())
            let movie = try await session.loadMovie()
            let track = try movie.thumbnailTrack()
            let (time, selection) = try ThumbnailTime.resolve(when.time.map(ThumbnailTime.seconds), in: movie, track: track,
                                                              selection: exact ? .exact : .nearestKeyframe)
            let plan = try FramePlanner.plan(track: track, time: time, selection: selection)
            let frame = try await FrameExtractor(session: session, track: track).frame(for: plan)
            try writeOutput(frame.rawVideoBytes(), to: output)
            let shown = Double(plan.targetPresentationTime) / Double(track.timescale)
            printError("\(frame.width)x\(frame.height) \(frame.pixelFormatName) pts \(plan.targetPresentationTime)/\(track.timescale) (\(shown) s)"
                + " sample \(plan.target.index) decoded \(plan.samples.count)")
            await source.printStats(of: input)
        }
    }
}
