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

    // `.unconditional`: `--time -5` is a (refused) negative time, not an unknown option `-5`.
    @Option(parsing: .unconditional, help: "Time in seconds on the movie timeline (default: the middle).")
    var time: Double?

    @Flag(help: "Decode the frame on screen at the time, from the keyframe before it, instead of the nearest keyframe.")
    var exact = false

    @Option(name: .shortAndLong, help: "Where to write the raw planes.")
    var output: String

    func validate() throws {
        if let time, !time.isFinite { throw ValidationError("--time must be a finite number of seconds") }
    }

    func run() async throws {
        let input = try source.openSourceOrExit()
        do {
            let movie = try await source.locator.locate(in: input).movie
            let track = try movie.thumbnailTrack()
            let seconds = time ?? track.durationSeconds / 2
            let plan = try FramePlanner.plan(track: track, time: track.presentationTime(seconds: seconds),
                                             selection: exact ? .exact : .nearestKeyframe)
            let frame = try await FrameExtractor(source: input, track: track).frame(for: plan)
            do {
                try Data(frame.rawVideoBytes()).write(to: URL(fileURLWithPath: output))
            } catch {
                printError("thumbs: \(output): \(error.localizedDescription)")
                throw ExitCode.ioError
            }
            let shown = Double(plan.targetPresentationTime) / Double(track.timescale)
            printError("\(frame.width)x\(frame.height) \(frame.pixelFormatName) pts \(plan.targetPresentationTime)/\(track.timescale) (\(shown) s)"
                + " sample \(plan.target.index) decoded \(plan.samples.count)")
            await source.printStats(of: input)
        } catch let error as ExitCode {
            throw error
        } catch {
            printError(errorMessage(error, about: source.input))
            await source.printStats(of: input)
            throw ExitCode.forError(error)
        }
    }
}
