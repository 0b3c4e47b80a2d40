import Matroska
import MP4Box
import MP4BoxTestSupport
import Testing

/// The index of files written by ffmpeg and mkvmerge against ffprobe's reading of them.
@Suite struct MatroskaLocatorTests {
    /// Locates `bytes` from memory, counting the reads.
    static func locate(_ bytes: [UInt8], head: UInt64 = 64 << 10, tail: UInt64 = 64 << 10) throws(MatroskaError) -> MatroskaLocator.Result {
        let length = UInt64(bytes.count)
        return try MatroskaLocator(headSize: head, tailSize: tail, elementGuess: 1024).run { request in
            (ByteAnswer.answering(request, length: length) { range in
                Array(bytes[Int(min(range.lowerBound, length)) ..< Int(min(range.upperBound, length))])
            }, length)
        }
    }

    @Test(arguments: MatroskaReferences.all)
    func cuePointsAreTheKeyframes(_ reference: MatroskaReferences.File) throws {
        let bytes = try reference.bytes()
        // The whole file in the ends, and ends of 2 KiB that leave Tracks and Cues to the SeekHead.
        for (head, tail) in [(UInt64(64 << 10), UInt64(64 << 10)), (2048, 2048)] {
            let located = try Self.locate(bytes, head: head, tail: tail)
            let file = located.file
            #expect(reference.formatName.contains(file.docType))
            let track = try #require(file.pictureTrack)
            #expect(track.video?.pixelWidth == UInt64(reference.width) && track.video?.pixelHeight == UInt64(reference.height))
            #expect(file.timestampScale == 1_000_000)
            // Cues list every keyframe of these files, as ffprobe does; without Cues, none.
            #expect(file.cuePoints.map { Int64($0.time) } == (reference.hasCues ? reference.keyframeTimes : []), "\(reference.name) head \(head)")
            #expect((file.duration != nil) == reference.hasDuration)
            if let duration = file.duration {
                #expect(abs(duration / 1000 - reference.duration) < 0.002, "\(duration) ms, ffprobe \(reference.duration) s")
            }
            // Small ends: one batch for what the SeekHead names, perhaps one more for the rest of a guess.
            #expect(located.reads <= 3, "\(reference.name): \(located.reads) reads with ends of \(head)")
        }
    }

    @Test(arguments: MatroskaReferences.all)
    func codecIDsNameTheCodec(_ reference: MatroskaReferences.File) throws {
        let track = try #require(try Self.locate(reference.bytes()).file.pictureTrack)
        let expected = ["h264": "V_MPEG4/ISO/AVC", "hevc": "V_MPEGH/ISO/HEVC", "av1": "V_AV1", "vp8": "V_VP8", "vp9": "V_VP9"]
        #expect(track.codecID == expected[reference.codecName])
        // avcC, hvcC and av1C records; VP8 and VP9 need none (mkvmerge writes VP9's features).
        #expect(!track.codecPrivate.isEmpty || ["vp8", "vp9"].contains(reference.codecName))
    }

    @Test func anMP4IsNotMatroska() throws {
        let bytes = try Fixtures.bytes("h264-faststart")
        #expect(throws: MatroskaError.self) { try Self.locate(bytes) }
        do {
            _ = try Self.locate(bytes)
        } catch {
            #expect(error.code == .notMatroska)
        }
    }

    /// Every cut of a file's head and every byte flipped in its header elements gives a typed error or an index,
    /// never a crash or a hang.
    @Test func damagedHeadsGiveTypedErrors() throws {
        let bytes = try #require(MatroskaReferences.all.first { $0.name.hasPrefix("h264-bframes.cues-front") }).bytes()
        let firstCluster = try #require(try Self.locate(bytes).file.firstClusterOffset)
        for cut in stride(from: 0, to: Int(firstCluster) + 64, by: 7) {
            _ = try? Self.locate(Array(bytes.prefix(cut)))
        }
        for position in 0 ..< Int(firstCluster) {
            var damaged = bytes
            damaged[position] ^= 0xFF
            _ = try? Self.locate(damaged, head: 1024, tail: 1024)
        }
    }
}
