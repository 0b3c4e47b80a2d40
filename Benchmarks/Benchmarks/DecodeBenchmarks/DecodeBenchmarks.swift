import BareDe265
import BareOpenH264
import Benchmark
import Foundation
import FrameDecode
import MP4Box

/// One keyframe of a fixture, loaded once: the sample as stored and as a bare decoder wants it.
struct Keyframe {
    let track: MovieTrack
    let input: DecoderInput
    let configuration: CodecConfiguration
    /// Annex B with the parameter sets first, for openh264.
    let annexB: [UInt8]
    /// NAL units without prefixes, parameter sets first, for libde265.
    let nalUnits: [[UInt8]]

    init(fixture: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let bytes = [UInt8](try Data(contentsOf: root.appendingPathComponent("Fixtures/\(fixture).mp4")))
        let movie = try MovieParser.parse(fileBytes: bytes)
        guard let track = movie.primaryVideoTrack, let entry = track.visualEntry else { throw DecodeError(.noFrame, "no video") }
        self.track = track
        let sample = try track.samples.sample(at: track.samples.sampleIndex(ofSyncSample: 0))
        let sampleBytes = Array(bytes[Int(sample.offset)..<Int(sample.offset) + Int(sample.size)])
        let configuration = try CodecConfiguration(entry: entry)
        input = DecoderInput(sample: sample, bytes: sampleBytes)
        self.configuration = configuration
        annexB = try LengthPrefixedNALUnits.annexB(sampleBytes, lengthSize: configuration.nalUnitLengthSize,
                                                   prefix: configuration.parameterSets)
        nalUnits = configuration.parameterSets + (try LengthPrefixedNALUnits.ranges(in: sampleBytes, lengthSize: configuration.nalUnitLengthSize))
            .map { Array(sampleBytes[$0]) }
    }
}

/// openh264 called directly: create, decode one access unit, flush, destroy. Returns the luma checksum.
func bareOpenH264(_ keyframe: Keyframe) -> Int {
    var decoder: UnsafeMutablePointer<ISVCDecoder?>?
    guard WelsCreateDecoder(&decoder) == 0, let decoder, let vtable = decoder.pointee?.pointee else { return -1 }
    defer {
        _ = vtable.Uninitialize?(decoder)
        WelsDestroyDecoder(decoder)
    }
    var quiet: Int32 = 0
    _ = vtable.SetOption?(decoder, DECODER_OPTION_TRACE_LEVEL, &quiet)
    var parameters = SDecodingParam()
    parameters.eEcActiveIdc = ERROR_CON_DISABLE
    parameters.sVideoProperty.eVideoBsType = VIDEO_BITSTREAM_AVC
    _ = vtable.Initialize?(decoder, &parameters)
    var info = SBufferInfo()
    var planes: [UnsafeMutablePointer<UInt8>?] = [nil, nil, nil]
    _ = keyframe.annexB.withUnsafeBufferPointer { buffer in
        planes.withUnsafeMutableBufferPointer { vtable.DecodeFrameNoDelay?(decoder, buffer.baseAddress, Int32(buffer.count), $0.baseAddress, &info) }
    }
    if info.iBufferStatus != 1 {
        var end: Int32 = 1
        _ = vtable.SetOption?(decoder, DECODER_OPTION_END_OF_STREAM, &end)
        _ = planes.withUnsafeMutableBufferPointer { vtable.FlushFrame?(decoder, $0.baseAddress, &info) }
    }
    return Int(planes[0]?.pointee ?? 0)
}

/// libde265 called directly: create, push the NAL units, flush, take the picture, free.
func bareDe265(_ keyframe: Keyframe) -> Int {
    guard let context = de265_new_decoder() else { return -1 }
    defer { de265_free_decoder(context) }
    for unit in keyframe.nalUnits {
        _ = unit.withUnsafeBufferPointer { de265_push_NAL(context, $0.baseAddress, Int32($0.count), 0, nil) }
    }
    de265_flush_data(context)
    var more: Int32 = 1
    var checksum = 0
    while more != 0 {
        let error = de265_decode(context, &more)
        if let image = de265_get_next_picture(context) {
            var stride: Int32 = 0
            checksum = Int(de265_get_image_plane(image, 0, &stride)?.pointee ?? 0)
        }
        if de265_isOK(error) == 0 && error != DE265_ERROR_WAITING_FOR_INPUT_DATA { break }
    }
    return checksum
}

/// Our decoder: the same bytes as stored in the file, through FrameDecode (Annex B conversion, copy out),
/// flushing only when the picture did not come out, as the bare path and `FrameExtractor` do.
func ourDecoder(_ keyframe: Keyframe) throws -> Int {
    let decoder = try VideoDecoderFactory.makeDecoder(for: keyframe.track)
    var frames = try decoder.decode(keyframe.input)
    if frames.isEmpty { frames = try decoder.flush() }
    return Int(frames.first?.planes[0].data.first ?? 0)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
                                           maxDuration: .seconds(3), maxIterations: 2_000)
    for (fixture, codec) in [("h264-1080p-crop", "H.264 1080p"), ("h264-faststart", "H.264 320x240"),
                             ("hevc-main10", "HEVC Main10 320x240"), ("hevc-8bit", "HEVC 320x240")] {
        guard let keyframe = try? Keyframe(fixture: fixture) else { continue }
        let isH264 = keyframe.configuration.codec == .h264
        Benchmark("keyframe \(codec): bare library") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(isH264 ? bareOpenH264(keyframe) : bareDe265(keyframe))
            }
        }
        Benchmark("keyframe \(codec): FrameDecode") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try ourDecoder(keyframe))
            }
        }
    }
}
