import Foundation
import MP4BoxTestSupport
import Testing
import TransportStream
@testable import Thumbs

/// H.264 field pictures in MPEG-TS (a camcorder's 1080i: each field a PES packet and an access unit of its own) paired
/// into frames, as ffmpeg's decoder pairs them: the frames' count and times are those of ffmpeg's decoded frames.
@Suite(.enabled(if: ExternalTool("/usr/bin/ffprobe").isInstalled, "needs ffprobe"))
struct FieldPairsTests {
    static let streams = Fixtures.directory.appendingPathComponent("streams")

    /// The access units of a TS file and the parameter sets before its first keyframe.
    static func accessUnits(_ file: String) throws -> (units: [TransportAccessUnit], parameterSets: [[UInt8]]) {
        var demuxer = TransportStreamDemuxer()
        try demuxer.append([UInt8](try Data(contentsOf: streams.appendingPathComponent(file)))[...])
        try demuxer.finish()
        let codec = try #require(demuxer.video?.codec)
        let units = demuxer.accessUnits
        return (units, codec.parameterSets(in: units[...]))
    }

    /// ffprobe's decoded frames' pts (90 kHz ticks), in presentation order.
    static func ffprobeFrameTimes(_ file: String) throws -> [Int64] {
        let run = try ExternalTool("/usr/bin/ffprobe").run(["-v", "error", "-select_streams", "v", "-show_frames", "-show_entries",
                                                            "frame=pts", "-of", "csv=p=0",
                                                            streams.appendingPathComponent(file).path])
        try #require(run.status == 0, "\(run.output)")
        return run.output.split(whereSeparator: \.isNewline).compactMap { Int64($0.split(separator: ",").first ?? "") }.sorted()
    }

    @Test func fieldsArePairedIntoFFmpegsFrames() throws {
        let file = "filetype-mts-interlaced/raw.mts"
        let (units, parameterSets) = try Self.accessUnits(file)
        let frames = FieldPairs.frames(of: units[...], parameterSets: parameterSets)
        let expected = try Self.ffprobeFrameTimes(file)
        #expect(units.count == 2 * expected.count, "\(units.count) fields, ffmpeg \(expected.count) frames")
        #expect(frames.map(\.presentationTime).sorted() == expected.map { $0 - expected[0] + (frames.map(\.presentationTime).min() ?? 0) })
        #expect(frames.first?.isKeyframe == true)
    }

    @Test func progressiveFramesAreLeftAsTheyAre() throws {
        let (units, parameterSets) = try Self.accessUnits("ffmpeg-hls-ts-h264-bframes/segment0.ts")
        #expect(FieldPairs.frames(of: units[...], parameterSets: parameterSets) == units)
    }
}
