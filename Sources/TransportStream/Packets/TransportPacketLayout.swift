/// How a stream's 188-byte packets lie in its bytes: back to back (broadcast, HLS: `.ts`), each after a 4-byte arrival
/// timestamp (Blu-ray and AVCHD camcorders: `.m2ts`, `.mts`, 192 bytes a packet), or each followed by 16 bytes of
/// Reed-Solomon parity (DVB, 204). Told by the content, not the name: the sync byte recurring at the packet size.
public struct TransportPacketLayout: Sendable, Equatable, CustomStringConvertible {
    /// Bytes from one packet's start to the next's.
    public let packetSize: Int
    /// Bytes before each packet's sync byte.
    public let syncOffset: Int

    /// Packets back to back.
    public static let plain = TransportPacketLayout(packetSize: 188, syncOffset: 0)
    /// Packets after a 4-byte timestamp each (`.m2ts`).
    public static let timestamped = TransportPacketLayout(packetSize: 192, syncOffset: 4)
    /// Packets followed by 16 parity bytes each.
    public static let withParity = TransportPacketLayout(packetSize: 204, syncOffset: 0)

    /// Packets in a row whose sync bytes tell a layout (fewer when the bytes hold fewer, at least two).
    public static let packetsToTell = 8

    public var description: String { "\(packetSize)-byte packets" }

    /// The layout of `bytes` (a stream's first bytes) and where its first whole packet starts: the first layout
    /// whose sync byte recurs at its packet size `packetsToTell` times in a row (as many as the bytes hold, two at
    /// least) from a place in the first packet's length. Nil when none does: the bytes are no transport stream.
    public static func detect(in bytes: [UInt8]) -> (layout: TransportPacketLayout, firstPacket: Int)? {
        for layout in [plain, timestamped, withParity] {
            let fit = bytes.count / layout.packetSize
            let needed = min(packetsToTell, max(2, fit))
            for start in 0 ..< layout.packetSize where layout.runs(in: bytes[...], from: start, packets: needed) {
                return (layout, start)
            }
        }
        return nil
    }

    /// Where in `bytes` (read at the stream's `offset`, anywhere in it) the first packet starts that has a sync byte
    /// and another a packet later (or the bytes end within that packet): resynchronised after a cut. Nil when there is
    /// none.
    public func firstPacket(in bytes: ArraySlice<UInt8>) -> Int? {
        var start = bytes.startIndex
        while start + syncOffset < bytes.endIndex {
            if bytes[start + syncOffset] == TransportPacket.syncByte {
                let next = start + packetSize + syncOffset
                if next >= bytes.endIndex || bytes[next] == TransportPacket.syncByte { return start }
            }
            start += 1
        }
        return nil
    }

    /// Whether `packets` packets from `start` each have their sync byte.
    private func runs(in bytes: ArraySlice<UInt8>, from start: Int, packets: Int) -> Bool {
        guard start + (packets - 1) * packetSize + syncOffset < bytes.endIndex else { return false }
        return (0 ..< packets).allSatisfy { bytes[start + $0 * packetSize + syncOffset] == TransportPacket.syncByte }
    }
}
