import MP4Box
import MP4BoxTestSupport
import Testing

/// Every fixture's video track against ffprobe's packet list, sample for sample.
@Suite struct FixtureConformanceTests {
    static let videoFixtures = Fixtures.videoNames

    @Test func fixturesArePresent() {
        #expect(Fixtures.names.count >= 17)
        #expect(Self.videoFixtures.count >= 16)
    }

    @Test(arguments: videoFixtures)
    func videoTrackMatchesFFprobeSampleForSample(_ name: String) async throws {
        let expected = try Fixtures.expectation(name)
        let located = try MovieLocator().locate(in: MemoryFile(try Fixtures.bytes(name)))
        let track = try #require(located.movie.primaryVideoTrack)
        #expect(track.samples.count == expected.packets.count)
        #expect(track.timescale == expected.timescale)
        for (index, packet) in expected.packets.enumerated() where index < track.samples.count {
            let sample = try track.samples.sample(at: index)
            #expect(sample.offset == packet.pos, "\(name) sample \(index) offset")
            #expect(sample.size == packet.size, "\(name) sample \(index) size")
            #expect(track.presentationDecodeTime(of: sample) == packet.dts, "\(name) sample \(index) dts")
            #expect(track.presentationTime(of: sample) == packet.pts, "\(name) sample \(index) pts")
            #expect(Int64(sample.duration) == packet.duration, "\(name) sample \(index) duration")
            #expect(sample.isSync == packet.key, "\(name) sample \(index) sync")
        }
        #expect(track.samples.syncSampleCount == expected.packets.filter(\.key).count)
    }

    @Test(arguments: videoFixtures)
    func videoTrackMatchesFFprobeInSizeCodecRotationAndDuration(_ name: String) async throws {
        let expected = try Fixtures.expectation(name)
        let movie = try MovieLocator().locate(in: MemoryFile(try Fixtures.bytes(name))).movie
        let track = try #require(movie.primaryVideoTrack)
        #expect(track.sampleEntryType?.description == expected.codecTag)
        let codec = switch expected.codecName {
        case "h264": ["avc1", "avc3"]
        case "av1": ["av01"]
        case "vp9": ["vp09"]
        default: ["hvc1", "hev1"]
        }
        #expect(codec.contains(track.codingFormat?.description ?? ""))
        #expect(track.croppedSize?.width == expected.width)
        #expect(track.croppedSize?.height == expected.height)
        if let sps = expected.sps {
            #expect(track.codedSize?.width == sps.codedWidth)
            #expect(track.codedSize?.height == sps.codedHeight)
            #expect(track.videoParameters?.bitDepthLuma == sps.bitDepthLuma)
            #expect(track.videoParameters?.chromaFormat == sps.chromaFormatIdc)
        }
        let (a, b, c, d) = expected.matrixLinearPart
        let orientation = try #require(track.orientation)
        #expect(orientation.linear == (a, b, c, d), "\(name) orientation \(orientation)")
        if let rotation = expected.rotation, !orientation.mirrored {
            // ffprobe's rotation is counter-clockwise; ours is clockwise.
            #expect(orientation.rotation == ((-Int(rotation)) % 360 + 360) % 360)
        }
        if let aspect = expected.sampleAspectRatio, aspect != "0:1" {
            let ratio = track.pixelAspectRatio
            #expect("\(ratio.h):\(ratio.v)" == aspect)
        }
        let duration = try #require(expected.duration)
        #expect(abs(track.durationSeconds - duration) < 0.0005, "\(name) duration \(track.durationSeconds) vs \(duration)")
    }

    @Test func audioOnlyFileHasNoVideoTrack() async throws {
        let expected = try Fixtures.expectation("audio-only")
        let movie = try MovieLocator().locate(in: MemoryFile(try Fixtures.bytes("audio-only"))).movie
        #expect(movie.primaryVideoTrack == nil)
        let audio = try #require(movie.tracks.first { $0.kind == .audio })
        #expect(audio.codingFormat == "mp4a")
        guard case .audio(let entry) = audio.sampleEntries.first else {
            Issue.record("no audio sample entry")
            return
        }
        #expect(Int(entry.sampleRate) == expected.audioSampleRate)
        #expect(abs(audio.durationSeconds - (expected.formatDuration ?? 0)) < 0.001)
    }

    @Test func audioAndVideoFileHasBothTracks() async throws {
        let movie = try MovieLocator().locate(in: MemoryFile(try Fixtures.bytes("audio-video"))).movie
        #expect(movie.tracks.map(\.kind) == [.video, .audio])
    }

    @Test func coverArtIsFoundInUdtaMetaIlst() async throws {
        let expected = try Fixtures.expectation("cover-art")
        #expect(expected.hasCoverArt)
        let movie = try MovieLocator().locate(in: MemoryFile(try Fixtures.bytes("cover-art"))).movie
        let art = try #require(movie.artwork.first)
        #expect(art.format.rawValue == expected.coverArtCodec)
        #expect(art.data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // The art's bytes are where the parser says they are.
        let file = try Fixtures.bytes("cover-art")
        #expect(Array(file[Int(art.fileOffset)..<Int(art.fileOffset) + art.data.count]) == Array(art.data))
    }

    @Test func fragmentedFileIsReportedAsFragmented() async throws {
        let movie = try MovieLocator().locate(in: MemoryFile(try Fixtures.bytes("fragmented"))).movie
        #expect(movie.isFragmented)
        #expect(movie.fragmentCount == 7)
        #expect(movie.segmentIndexes.count == 1)
        #expect(movie.segmentIndexes.first?.references.count == movie.fragmentCount)
    }
}
