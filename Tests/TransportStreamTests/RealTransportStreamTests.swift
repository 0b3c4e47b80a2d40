import Foundation
import MP4BoxTestSupport
import Testing
import TransportStream

/// The demuxer on real MPEG-TS files (FFmpeg's muxer, shaka-player's and Media3's test streams) against what ffprobe
/// lists of their video packets (`Fixtures/streams/expectations.json`, written by `make-expectations.py`).
struct RealTransportStreamTests {
    struct Expectations: Decodable {
        var transportPackets: [String: [Packet]]
    }

    /// ffprobe's [pts, dts, pos, keyframe].
    struct Packet: Decodable {
        var pts: Int64
        var dts: Int64
        var pos: UInt64
        var isKeyframe: Bool

        init(from decoder: any Decoder) throws {
            var fields = try decoder.unkeyedContainer()
            pts = try fields.decode(Int64.self)
            dts = try fields.decode(Int64.self)
            pos = try fields.decode(UInt64.self)
            isKeyframe = try fields.decode(Bool.self)
        }
    }

    static let streams = Fixtures.directory.appendingPathComponent("streams")

    static let expected: [String: [Packet]] = {
        do {
            let data = try Data(contentsOf: streams.appendingPathComponent("expectations.json"))
            return try JSONDecoder().decode(Expectations.self, from: data).transportPackets
        } catch {
            fatalError("Fixtures/streams/expectations.json: \(error)")
        }
    }()

    static let files = expected.keys.sorted()

    @Test func everyTransportStreamFixtureHasItsExpectations() throws {
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: Self.streams.path).flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: Self.streams.appendingPathComponent(folder).path)) ?? [])
                .filter { $0.hasSuffix(".ts") }.map { "\(folder)/\($0)" }
        }
        #expect(Set(onDisk) == Set(Self.files))
        #expect(Self.files.count >= 6)
    }

    @Test(arguments: files)
    func videoPacketsMatchFFprobe(_ file: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.streams.appendingPathComponent(file)))
        var demuxer = TransportStreamDemuxer()
        // In pieces of an odd size, as reads arrive.
        var start = 0
        while start < bytes.count {
            try demuxer.append(bytes[start ..< min(start + 5000, bytes.count)])
            start += 5000
        }
        try demuxer.finish()
        let packets = try #require(Self.expected[file])
        let units = demuxer.accessUnits
        #expect(units.count == packets.count, "\(file)")
        let firstUnit = try #require(units.first, "\(file) has no access units")
        let firstPacket = try #require(packets.first, "\(file) has no packets in expectations.json")
        for (index, (unit, packet)) in zip(units, packets).enumerated() {
            // ffprobe unwraps its own way (from a reference it picks): the differences are what both must agree on.
            #expect(unit.presentationTime - firstUnit.decodeTime == packet.pts - firstPacket.dts, "\(file) packet \(index) pts")
            #expect(unit.decodeTime - firstUnit.decodeTime == packet.dts - firstPacket.dts, "\(file) packet \(index) dts")
            #expect(unit.byteRange.lowerBound == packet.pos, "\(file) packet \(index) pos")
            #expect(unit.isKeyframe == packet.isKeyframe, "\(file) packet \(index) keyframe")
        }
        #expect(demuxer.resynchronisations == 0)
    }

    @Test func theWrappingStreamGoesOnPastTwoToTheThirtyThree() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.streams.appendingPathComponent("ffmpeg-ts-timestamp-wrap/wrap.ts")))
        var demuxer = TransportStreamDemuxer()
        try demuxer.append(bytes)
        try demuxer.finish()
        let times = demuxer.accessUnits.map(\.decodeTime)
        #expect(times.first.map { $0 < (1 << 33) } == true)
        #expect(times.last.map { $0 > (1 << 33) } == true)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }
}
