import Matroska
import MP4Box
import MP4BoxTestSupport
import Testing

/// The search over the Clusters of files without Cues: for every frame's time, it ends at the Cluster a scan of the
/// whole file says plays then; an ID without a Cluster's header after it gives no point.
@Suite struct MatroskaClusterSearchTests {
    @Test(arguments: MatroskaReferences.all.filter { !$0.hasCues })
    func findsTheClusterPlayingAtEveryFramesTime(_ reference: MatroskaReferences.File) throws {
        let bytes = try reference.bytes()
        let file = try MatroskaLocatorTests.locate(bytes).file
        let first = try #require(file.firstClusterOffset)
        let all = MatroskaClusterSearch.clusters(in: bytes, at: 0, before: UInt64(bytes.count))
        #expect(all.first?.offset == first)
        #expect(all.count > 1, "\(reference.name): one Cluster")
        // Probes of the default 16 KiB, as a search of these files (Clusters of 3 to 37 KB) makes them.
        for packet in reference.videoPackets {
            var search = MatroskaClusterSearch(first: try #require(all.first), end: UInt64(bytes.count))
            var log: [String] = []
            while let probe = search.nextProbe(for: packet.pts) {
                log.append("\(probe)")
                let end = min(Int(probe.upperBound), bytes.count)
                search.receive(Array(bytes[Int(probe.lowerBound) ..< end]), at: probe.lowerBound)
            }
            let expected = try #require(all.last { $0.time <= packet.pts })
            #expect(search.start(for: packet.pts) == expected, "\(reference.name) at \(packet.pts) ms \(log) \(search.points.map { [$0.offset, UInt64($0.time)] })")
        }
    }

    /// A Cluster ID inside other bytes is no Cluster unless a size and a Timestamp follow it.
    @Test func anIDAloneIsNoCluster() {
        let found = MatroskaClusterSearch.clusters(in: [0x1F, 0x43, 0xB6, 0x75, 0x84, 0xA3, 0x81, 0x00, 0x00,
                                                        0x1F, 0x43, 0xB6, 0x75, 0x84, 0xE7, 0x82, 0x01, 0x2C],
                                                   at: 100, before: 1000)
        #expect(found == [MatroskaClusterSearch.Point(offset: 109, time: 300)])
    }
}
