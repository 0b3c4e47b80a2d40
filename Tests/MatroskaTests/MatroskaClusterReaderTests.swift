import Foundation
import Matroska
import MP4Box
import MP4BoxTestSupport
import Testing

/// Clusters read forward against ffprobe's packet lists, and lacing built by hand.
@Suite struct MatroskaClusterReaderTests {
    @Test(arguments: MatroskaReferences.all)
    func framesAreFFprobesPackets(_ reference: MatroskaReferences.File) throws {
        let bytes = try reference.bytes()
        let file = try MatroskaLocatorTests.locate(bytes).file
        let track = try #require(file.pictureTrack)
        let start = try #require(file.firstClusterOffset)
        // Pieces of every size from 1 byte up: the reader keeps no more than an element and skips what passes.
        for piece in [1, 777, 1 << 20] {
            var reader = MatroskaClusterReader(track: track, timestampScale: file.timestampScale, start: start)
            var position = Int(start)
            while position < bytes.count {
                let end = min(bytes.count, position + piece)
                try reader.append(bytes[position ..< end])
                position = end
            }
            reader.finish()
            let frames = reader.frames.map { [$0.timestamp, $0.isKeyframe ? 1 : 0, Int64($0.data.count)] }
            let packets = reference.videoPackets.map { [$0.pts, $0.isKeyframe ? 1 : 0, Int64($0.size)] }
            #expect(frames == packets, "\(reference.name) in pieces of \(piece)")
        }
    }

    /// Transparent WebM (Fixtures/matroska/alpha, ffmpeg's libvpx with yuva420p): each of the 50 frames has its alpha
    /// picture (mkvinfo lists 50 BlockGroups, each with a BlockAdditional of ID 1); written as a movie, they are an
    /// auxiliary track (`auxv`, `tref`/`auxl`) that MP4Box reads back as the picture track's alpha, sample for sample.
    @Test(arguments: ["vp8", "vp9"])
    func alphaPicturesComeWithTheirFramesAndAreWrittenAsAnAuxiliaryTrack(_ codec: String) throws {
        let bytes = [UInt8](try Data(contentsOf: MatroskaReferences.folder.appendingPathComponent("alpha/\(codec).webm")))
        let file = try MatroskaLocatorTests.locate(bytes).file
        let track = try #require(file.pictureTrack)
        #expect(track.video?.alphaMode == 1)
        var reader = MatroskaClusterReader(track: track, timestampScale: file.timestampScale, start: try #require(file.firstClusterOffset))
        try reader.append(bytes[Int(try #require(file.firstClusterOffset))...])
        reader.finish()
        #expect(reader.frames.count == 50)
        let alpha = reader.frames.compactMap(\.alpha)
        #expect(alpha.count == 50 && alpha.allSatisfy { !$0.isEmpty })

        var coded = CodedVideoTrack(sampleEntry: codec == "vp8" ? "vp08" : "vp09", entryBoxes: [], width: 160, height: 120,
                                    timescale: 1000, samples: reader.frames.map {
                                        CodedVideoTrack.Sample(decodeTime: $0.timestamp, presentationTime: $0.timestamp,
                                                               isSync: $0.isKeyframe, data: $0.data)
                                    })
        coded.alpha = alpha
        let movieBytes = try VideoMovieWriter.movie(of: coded)
        let movie = try MovieParser.parse(fileBytes: movieBytes)
        let picture = try #require(movie.primaryVideoTrack)
        let alphaTrack = try #require(movie.alphaTrack(of: picture))
        #expect(alphaTrack.handlerType == "auxv" && alphaTrack.auxiliaryFor == [picture.id])
        for index in [0, 1, 25, 49] {
            let sample = try alphaTrack.samples.sample(at: index)
            let range = Int(sample.offset) ..< Int(sample.offset) + Int(sample.size)
            #expect(Array(movieBytes[range]) == alpha[index])
            #expect(try alphaTrack.samples.sample(at: index).decodeTime == picture.samples.sample(at: index).decodeTime)
        }
        // One alpha picture short: refused.
        coded.alpha = Array(alpha.dropLast())
        #expect(throws: MP4Error.self) { try VideoMovieWriter.movie(of: coded) }
    }

    /// mkvmerge laces AAC: every other track's frames, unlaced, are ffprobe's packets.
    @Test func lacedAudioFramesAreCounted() throws {
        let reference = try #require(MatroskaReferences.all.first { $0.name == "audio-video.mkvmerge.mkv" })
        let bytes = try reference.bytes()
        let file = try MatroskaLocatorTests.locate(bytes).file
        let audio = try #require(file.tracks.first { $0.kind == .audio })
        var reader = MatroskaClusterReader(track: audio, timestampScale: file.timestampScale, start: try #require(file.firstClusterOffset))
        try reader.append(bytes[Int(try #require(file.firstClusterOffset))...])
        #expect(reader.frames.count == reference.otherPacketCount)
    }

    /// A Cluster of unknown size holding one SimpleBlock of each lacing, then a Cues element that ends it.
    @Test func lacingsAndUnknownSizes() throws {
        let track = try #require(try MatroskaLocatorTests.locate(
            MatroskaReferences.all.first { $0.name.hasPrefix("h264-bframes.cues-back") }!.bytes()).file.pictureTrack)
        func block(lacing: UInt8, frames: [[UInt8]], sizes: [UInt8]) -> [UInt8] {
            let data: [UInt8] = [0x80 | UInt8(track.number), 0x00, 0x05, 0x80 | lacing << 1] + (frames.count > 1 ? [UInt8(frames.count - 1)] : [])
                + sizes + frames.flatMap { $0 }
            return [0xA3, 0x80 | UInt8(data.count)] + data
        }
        let xiph = block(lacing: 1, frames: [[1, 2], [3], [4, 5, 6]], sizes: [2, 1])
        // EBML: 2 as a 1-byte vint (0x82), then +1 as a signed 1-byte difference (0xBF + 1 = 0xC0... 63 + 1 bias).
        let ebml = block(lacing: 3, frames: [[7, 8], [9, 10, 11], [12]], sizes: [0x82, 0xC0])
        let fixed = block(lacing: 2, frames: [[13, 14], [15, 16]], sizes: [])
        let cluster: [UInt8] = [0x1F, 0x43, 0xB6, 0x75, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xE7, 0x81, 0x64]
            + xiph + ebml + fixed
        let cues: [UInt8] = [0x1C, 0x53, 0xBB, 0x6B, 0x80]
        var reader = MatroskaClusterReader(track: track, timestampScale: 1_000_000, start: 1000)
        try reader.append((cluster + cues + block(lacing: 0, frames: [[99]], sizes: []))[...])
        #expect(reader.frames.map(\.data) == [[1, 2], [3], [4, 5, 6], [7, 8], [9, 10, 11], [12], [13, 14], [15, 16]])
        #expect(reader.frames.first?.timestamp == 105)
        #expect(reader.frames.allSatisfy { $0.isKeyframe })
    }

    @Test func aBlockBeforeTheClusterTimestampIsMalformed() throws {
        let track = try #require(try MatroskaLocatorTests.locate(
            MatroskaReferences.all.first { $0.name.hasPrefix("h264-bframes.cues-back") }!.bytes()).file.pictureTrack)
        var reader = MatroskaClusterReader(track: track, timestampScale: 1_000_000, start: 0)
        let bytes: [UInt8] = [0x1F, 0x43, 0xB6, 0x75, 0x86, 0xA3, 0x84, 0x81, 0x00, 0x00, 0x80]
        #expect(throws: MatroskaError.self) { try reader.append(bytes[...]) }
    }
}
