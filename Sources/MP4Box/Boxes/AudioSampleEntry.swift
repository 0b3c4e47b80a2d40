/// An audio sample entry: mp4a, enca, ... (ISO/IEC 14496-12, 12.2.3; QuickTime sound description versions 1 and 2).
public struct AudioSampleEntry: Sendable {
    public let header: BoxHeader
    /// Number of channels.
    public let channelCount: UInt16
    /// Bits per sample.
    public let sampleSize: UInt16
    /// Sample rate in Hz (integer part of the 16.16 field; version 2 stores a double).
    public let sampleRate: Double
    /// The child boxes (esds, sinf, ...).
    public let children: [any Box]

    init(header: BoxHeader, reader: inout BoxReader, context: inout ParseContext) throws(MP4Error) {
        self.header = header
        try reader.skip(6)                      // reserved
        _ = try reader.readUInt16()             // data_reference_index
        let version = try reader.readUInt16()   // QuickTime sound description version; 0 in ISO files
        try reader.skip(6)                      // revision, vendor
        var channels = try reader.readUInt16()
        var bits = try reader.readUInt16()
        try reader.skip(4)                      // compression ID, packet size
        var rate = Double(try reader.readUInt32() >> 16)
        switch version {
        case 1:
            try reader.skip(16)                 // samples per packet, bytes per packet/frame/sample
        case 2:
            try reader.skip(4)                  // size of struct
            rate = Double(bitPattern: try reader.readUInt64())
            channels = UInt16(truncatingIfNeeded: try reader.readUInt32())
            try reader.skip(4)                  // always 0x7F000000
            bits = UInt16(truncatingIfNeeded: try reader.readUInt32())
            try reader.skip(12)                 // format flags, bytes per packet, frames per packet
        default:
            break
        }
        channelCount = channels
        sampleSize = bits
        sampleRate = rate
        children = try BoxTreeReader.readChildren(&reader, context: &context)
    }
}
