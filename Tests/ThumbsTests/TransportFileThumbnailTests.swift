import ByteSources
import Foundation
import FrameDecode
import MP4BoxTestSupport
import StreamManifests
import Testing
import Thumbs
import TransportStream

/// Thumbnails of bare transport stream files (Fixtures/transport: ffmpeg's remuxes of the MP4 fixtures as TS, M2TS and
/// with wrapping timestamps, and a 30 s stream with keyframes at scene cuts) against ffmpeg's pictures of the same
/// frames, through the one media rule, as every job reads them.
@Suite struct TransportFileThumbnailTests {
    static func options(exact: Bool) -> ThumbnailOptions {
        var options = ThumbnailOptions()
        options.maximumSize = PixelSize(width: 160, height: 160)
        if exact {
            options.requestedTimeToleranceBefore = .zero
            options.requestedTimeToleranceAfter = .zero
        }
        return options
    }

    static func thumbnail(_ input: any MovieInput, at time: ThumbnailTime?, exact: Bool = false) async throws -> Thumbnail {
        try await Media.withMedia(of: input) { media in
            try await ThumbnailGenerator(media: media, options: options(exact: exact)).image(at: time)
        }
    }

    /// The files this build gives pictures of: MPEG-2 video only with the FFmpegDecoders trait.
    static var decodable: [TransportReferences.File] {
        #if FFmpegDecoders
        TransportReferences.all
        #else
        TransportReferences.all.filter { !$0.needsFFmpegDecoders }
        #endif
    }

    @Test(arguments: decodable)
    func picturesMatchFFmpegs(_ file: TransportReferences.File) async throws {
        for role in file.roles {
            let made = try await Self.thumbnail(FileInput(path: file.path), at: .rational(value: role.askedTicks, timescale: 90_000),
                                                exact: role.exact)
            let path = TransportReferences.referencePath(file.name, role: role.role)
            let expected = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            #expect([expected.width, expected.height] == file.referenceSize)
            try #require(made.image.width == expected.width && made.image.height == expected.height,
                         "\(file.name) \(role.role): \(made.image.width)x\(made.image.height)")
            let quality = psnr(made.image.colourPixels, expected.packed().pixels)
            #expect(quality >= 35, "\(file.name) \(role.role): psnr \(quality) dB")
            #expect(abs(made.actualTime * 90_000 - Double(role.shownTicks)) < 1, "\(file.name) \(role.role): \(made.actualTime) s")
        }
    }

    #if !FFmpegDecoders
    /// MPEG-2 and MPEG-4 Part 2 video are read as any TS video is, then refused by the decoders with an error naming
    /// the codec and the trait.
    @Test(arguments: TransportReferences.all.filter(\.needsFFmpegDecoders))
    func isRefusedNamingTheTrait(_ file: TransportReferences.File) async throws {
        let error = try await #require(throws: DecodeError.self) { _ = try await Self.thumbnail(FileInput(path: file.path), at: nil) }
        let codec = file.codecName == "mpeg4" ? "MPEG-4 Part 2" : "MPEG-2"
        #expect(error.code == .unsupportedCodec && error.description.contains(codec) && error.description.contains("FFmpegDecoders"),
                "\(error)")
    }
    #endif

    /// Two pictures of one file share its reading: the second, at a keyframe the first search passed, costs fewer
    /// reads than the first.
    @Test func aSecondPictureGoesOnFromTheFirstsReads() async throws {
        let file = try #require(TransportReferences.all.first { $0.name == "search-30s.ts" })
        let keyframes = file.keyframes.map { Double($0.pts) / 90_000 }
        try await Media.withMedia(of: FileInput(path: file.path)) { media in
            let generator = ThumbnailGenerator(media: media, options: Self.options(exact: false))
            let first = try await generator.image(at: .seconds(keyframes[8]))
            let second = try await generator.image(at: .seconds(keyframes[8] + 0.04))
            #expect(first.actualTime == keyframes[8] && second.actualTime == keyframes[8])
            #expect(second.requests == 0, "\(second.requests) requests")
        }
    }

    /// With no time, a tenth of the duration (where the last picture ends), its nearest keyframe.
    @Test func theDefaultTimeIsATenthOfTheDuration() async throws {
        let file = try #require(TransportReferences.all.first { $0.name == "search-30s.ts" })
        let made = try await Self.thumbnail(FileInput(path: file.path), at: nil)
        let tenth = Double(file.endTicks) / 10
        let nearest = try #require(file.keyframes.min { abs(Double($0.pts) - tenth) < abs(Double($1.pts) - tenth) })
        #expect(made.actualTime * 90_000 == Double(nearest.pts))
    }

    /// The content tells a transport stream, whatever the name; a name that says TS on something else is read as
    /// what it is, and a file that is neither is the transport stream error.
    @Test func theContentTellsATransportStream() async throws {
        let file = try #require(TransportReferences.all.first { $0.name == "h264-bframes.m2ts" })
        let bytes = try file.bytes()
        let expected = try await Self.thumbnail(FileInput(path: file.path), at: .seconds(1))
        for name in ["clip.mp4", "clip", "clip.bin?x=.ts"] {
            let input = CustomInput(key: name) { MemoryByteSource(bytes) }
            // A movie's reading runs first for these names and finds no movie in its body (`notAMovie`).
            let made = try await Media.withMedia(of: input) { media in
                try await ThumbnailGenerator(media: media, options: Self.options(exact: false)).image(at: .seconds(1))
            }
            #expect(made.encoded == expected.encoded, "\(name)")
        }
        let movie = try [UInt8](Data(contentsOf: Fixtures.directory.appendingPathComponent("h264-bframes.mp4")))
        let named = CustomInput(key: "movie.ts") { MemoryByteSource(movie) }
        let fromMovie = try await Media.withMedia(of: named) { try await ThumbnailGenerator(media: $0).image(at: .seconds(1)) }
        let movieItself = try await Media.withMedia(of: FileInput(path: Fixtures.path("h264-bframes"))) {
            try await ThumbnailGenerator(media: $0).image(at: .seconds(1))
        }
        #expect(fromMovie.encoded == movieItself.encoded && fromMovie.streamPosition == nil)
        let text = CustomInput(key: "notes.ts") { MemoryByteSource(Array("const x: number = 1;\n".utf8)) }
        let error = try await #require(throws: TransportStreamError.self) { _ = try await Self.thumbnail(text, at: nil) }
        #expect(error.code == .notTransportStream && error.description.contains("notes.ts"), "\(error)")
    }

    /// A transport stream without video is a typed error that says what its program holds.
    @Test func aStreamWithoutVideoIsRefused() async throws {
        let file = try #require(TransportReferences.all.first { $0.name == "audio-video.ts" })
        var bytes = try file.bytes()
        // The program map's video stream_type (0x1B, before PID 0x100) made VC-1's (0xEA).
        let at = try #require((0 ..< 1128).first { bytes[$0] == 0x1B && bytes[$0 + 1] == 0xE1 && bytes[$0 + 2] == 0x00 })
        bytes[at] = 0xEA
        // The section's CRC, recomputed, so the map is read.
        let sectionStart = at / 188 * 188 + 5
        let length = (Int(bytes[sectionStart + 1] & 0x0F) << 8) | Int(bytes[sectionStart + 2])
        let crcAt = sectionStart + 3 + length - 4
        let crc = Self.crc32mpeg2(bytes[sectionStart ..< crcAt])
        for index in 0 ..< 4 { bytes[crcAt + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
        let changed = bytes
        let input = CustomInput(key: "no-h264.ts") { MemoryByteSource(changed) }
        let error = try await #require(throws: TransportStreamError.self) { _ = try await Self.thumbnail(input, at: nil) }
        #expect(error.code == .unsupported && error.description.contains("VC-1"), "\(error)")
    }

    static func crc32mpeg2(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0 ..< 8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }

    /// `info` summarises the file as one MPEG-TS segment lasting until its last picture ends, its picture's size and
    /// coding as ffprobe says.
    @Test(arguments: TransportReferences.all)
    func theSummaryIsOneSegment(_ file: TransportReferences.File) async throws {
        let summary = try await StreamSummary.read(StreamSession(input: FileInput(path: file.path), description: .transportStream))
        let rendition = try #require(summary.periods.first?.renditions.first)
        #expect(summary.format == "mpeg-ts" && rendition.segmentFormat == "mpeg-ts")
        #expect(rendition.segmentCount == 1)
        #expect(rendition.codecs == file.coding)
        #expect(rendition.width == file.width && rendition.height == file.height)
        #expect(abs((rendition.end ?? 0) * 90_000 - Double(file.endTicks)) < 1)
    }
}
