@testable import MP4Box
import MP4BoxTestSupport
import Testing

/// The locator as a reader that does no I/O: what it asks for, driven from memory without a byte source, and what
/// it does with an answer that does not fit what it asked.
@Suite struct IndexReaderTests {
    /// The offsets and types of the top-level boxes, by their headers alone (the oracle for where boxes are).
    static func topLevelBoxes(_ file: [UInt8]) -> [(offset: UInt64, type: String, size: UInt64)] {
        var boxes: [(UInt64, String, UInt64)] = []
        var offset = 0
        while offset + 8 <= file.count {
            var size = file[offset..<offset + 4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if size == 1 { size = file[offset + 8..<offset + 16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
            if size == 0 { size = UInt64(file.count - offset) }
            boxes.append((UInt64(offset), String(decoding: file[offset + 4..<offset + 8], as: UTF8.self), size))
            offset += Int(size)
        }
        return boxes
    }

    @Test func aMovieAtTheEndIsLocatedFromTheEndsAndOneRangeWithoutASource() throws {
        let file = try Fixtures.bytes("h264-bframes")
        let length = UInt64(file.count)
        let moov = try #require(Self.topLevelBoxes(file).first { $0.type == "moov" })
        #expect(moov.offset + moov.size == length)
        #expect(moov.size > 512)
        var options = MovieLocator.Options()
        options.headSize = 1024
        options.tailSize = 512
        let memory = MemoryFile(file)
        let located = try memory.run(MovieLocator(options: options, knownLength: length))
        let requests = memory.requests
        // The ends, then what of moov the tail lacks: nothing before moov, nothing the tail holds.
        #expect(requests == [.ends(head: 1024, tail: 512), .range(moov.offset..<(length - 512))])
        #expect(try located.movie.fingerprint()
                == MovieParser.parse(fileBytes: file).fingerprint())
    }

    @Test func aFragmentOnDemandIsOneBatchOfProbesAtItsMoof() throws {
        let file = try Fixtures.bytes("fragmented")
        let moofs = Self.topLevelBoxes(file).filter { $0.type == "moof" }.map(\.offset)
        #expect(moofs.count > 1)
        let locator = MovieLocator(options: MovieLocator.Options(fragmentReading: .onDemand), knownLength: UInt64(file.count))
        let located = try MemoryFile(file).run(locator)
        let index = try #require(located.movie.fragmentIndex)
        let last = index.subsegments.count - 1
        let memory = MemoryFile(file)
        let more = try memory.run(locator.fragmentReader([last], of: located.movie, knownLength: UInt64(file.count)))
        let requests = memory.requests
        guard case .ranges(let probes) = try #require(requests.first) else {
            Issue.record("asked for \(requests) instead of a batch of probes")
            return
        }
        #expect(requests.count == 1)
        #expect(probes.map(\.lowerBound) == [moofs[last]])
        #expect(more.movie.readSubsegments == [last])
        #expect(more.topLevelBoxes.map(\.offset) == [moofs[last]])
    }

    @Test func anAnswerOfAnotherShapeIsATypedError() throws {
        let file = try Fixtures.bytes("h264-bframes")
        var locator = MovieLocator(knownLength: UInt64(file.count))
        guard case .read(let request) = try locator.next() else {
            Issue.record("located without a read")
            return
        }
        locator.receive(.bytes([[]]), for: request, knownLength: UInt64(file.count))
        let error = #expect(throws: MP4Error.self) { try locator.next() }
        #expect(error?.code == .readFailed)
    }

    /// The outcome of reading `file` as `read` does: the movie's fingerprint, or the error's code and where it is.
    static func outcome(_ read: () throws(MP4Error) -> Movie) -> [String] {
        do {
            return try read().fingerprint()
        } catch let error as MP4Error {
            return ["\(error.code) \(error.path) \(error.offset)"]
        } catch {
            return ["\(error)"]
        }
    }

    @Test(arguments: ["h264-faststart", "h264-bframes", "fragmented", "audio-video"])
    func aFileInMemoryFollowsTheLocatorsRulesForItsEnd(_ name: String) throws {
        // Cut at a quarter, half and three quarters of the file, and padded with 3 bytes: in memory or read in small
        // pieces, one walk decides what the end means (cut media after moov keeps the index, as players do).
        let file = try Fixtures.bytes(name)
        let variants = [1, 2, 3].map { Array(file.prefix(file.count * $0 / 4)) } + [file + [0, 0, 0]]
        var options = MovieLocator.Options()
        options.headSize = 512
        options.tailSize = 256
        for variant in variants {
            let inMemory = Self.outcome { () throws(MP4Error) in try MovieParser.parse(fileBytes: variant) }
            let located = Self.outcome { () throws(MP4Error) in try MovieLocator(options: options).locate(in: MemoryFile(variant)).movie }
            #expect(inMemory == located, "\(name) as \(variant.count) bytes")
        }
        // The faststart file cut in its media data still has its whole index.
        if name == "h264-faststart" {
            #expect(try MovieParser.parse(fileBytes: Array(file.prefix(file.count / 2))).primaryVideoTrack != nil)
        }
    }

    @Test func theMoofsASegmentIndexListsAreTwoBatchesWhateverTheirNumber() throws {
        // Probes of 64 bytes, shorter than each 200-byte moof of `fragmented`: every moof needs the rest of its bytes.
        let bytes = try Fixtures.bytes("fragmented")
        let moofs = Self.topLevelBoxes(bytes).filter { $0.type == "moof" }
        #expect(moofs.count > 2 && moofs.allSatisfy { $0.size > 64 })
        var options = MovieLocator.Options(fragmentReading: .all)
        options.headSize = 1024
        options.tailSize = 0
        options.fragmentProbeSize = 64
        let file = MemoryFile(bytes)
        let located = try MovieLocator(options: options).locate(in: file)
        // The ends; the probes of every moof but the first (in the 1 KiB head); the rest of every moof; the box after
        // the last fragment (mfra). Asking for each moof's rest on its own would be 10 requests here.
        let boxes = Self.topLevelBoxes(bytes)
        let after = try #require(boxes.first { $0.offset >= moofs[moofs.count - 1].offset + moofs[moofs.count - 1].size && $0.type != "mdat" })
        #expect(file.requests.count == 4, "\(file.requests)")
        guard file.requests.count == 4, case .ranges(let probes) = file.requests[1], case .ranges(let rests) = file.requests[2],
              case .range(let last) = file.requests[3] else {
            Issue.record("asked for \(file.requests)")
            return
        }
        #expect(probes.map(\.lowerBound) == moofs.dropFirst().map(\.offset))
        #expect(rests.map(\.lowerBound) == moofs.map { $0.offset + 64 })
        #expect(last.lowerBound == after.offset)
        #expect(try located.movie.fingerprint() == MovieParser.parse(fileBytes: bytes).fingerprint())
    }

    @Test(.timeLimit(.minutes(1)))
    func aMoovOfManyTracksReadInPartCostsWorkInProportionToThem() throws {
        // `audio-video` with its audio trak 20,000 times more in moov (at the end of the file, so no offset moves):
        // read child by child, each audio trak is one probe and is skipped; a step that ran again over every child
        // before it (or copied what it found) would take minutes.
        let bytes = try Fixtures.bytes("audio-video")
        let moov = try #require(Self.topLevelBoxes(bytes).first { $0.type == "moov" })
        #expect(moov.offset + moov.size == UInt64(bytes.count))
        var children: [(offset: Int, size: Int)] = []
        var offset = Int(moov.offset) + 8
        while offset < bytes.count {
            let size = Int(bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            children.append((offset, size))
            offset += size
        }
        let audio = try #require(children.first { child in
            Array(bytes[child.offset + 4..<child.offset + 8]) == Array("trak".utf8)
                && String(decoding: bytes[child.offset..<child.offset + child.size], as: UTF8.self).contains("soun")
        })
        let copies = 20_000
        let trak = Array(bytes[audio.offset..<audio.offset + audio.size])
        var payload = Array(bytes[Int(moov.offset) + 8..<bytes.count])
        payload.reserveCapacity(payload.count + copies * trak.count)
        for _ in 0..<copies { payload += trak }
        let file = MemoryFile(Array(bytes[0..<Int(moov.offset)]) + BoxBuilder.box("moov", payload))
        var options = VideoTrackOnlyLocatorTests.options()
        options.limits.maximumTrackCount = copies + 2  // past the default 1,024 on purpose
        let located = try MovieLocator(options: options).locate(in: file)
        #expect(located.movie.tracks.map(\.kind) == [.video])
        #expect(file.requests.count < copies + 10)
    }
}
