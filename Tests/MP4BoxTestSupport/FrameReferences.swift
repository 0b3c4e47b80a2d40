import Foundation

/// ffmpeg's decode of a fixture's chosen frames (written by Fixtures/make-fixtures.sh).
public struct FrameReferences: Decodable, Sendable {
    public struct Frame: Decodable, Sendable {
        public var role: String
        public var pts: Int64
        public var md5: String
        public var size: Int
        public var pictType: String?
    }

    public var file: String
    public var pixFmt: String
    public var width: Int
    public var height: Int
    public var timeBase: String
    public var midTime: Double
    public var frames: [Frame]

    /// The references of a fixture, or nil when it has none (no video track).
    public static func load(_ name: String) throws -> FrameReferences? {
        let url = Fixtures.directory.appendingPathComponent(name + ".frames.json")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(FrameReferences.self, from: Data(contentsOf: url))
    }

    /// The raw reference frame for `role`, when the fixture script stored it.
    public static func rawFrame(_ name: String, role: String) -> [UInt8]? {
        let url = Fixtures.directory.appendingPathComponent("frames/\(name).\(role).yuv")
        return (try? Data(contentsOf: url)).map { [UInt8]($0) }
    }

    /// Names of fixtures with references.
    public static var names: [String] { Fixtures.names.filter { (try? load($0)) != nil } }
}

/// Peak signal-to-noise ratio of two 8-bit images, in dB (infinity when identical).
public func psnr(_ lhs: [UInt8], _ rhs: [UInt8]) -> Double {
    guard lhs.count == rhs.count, !lhs.isEmpty else { return 0 }
    var sum = 0.0
    for index in 0..<lhs.count {
        let difference = Double(Int(lhs[index]) - Int(rhs[index]))
        sum += difference * difference
    }
    if sum == 0 { return .infinity }
    return 10 * log10(255 * 255 / (sum / Double(lhs.count)))
}
