import Foundation

/// `Fixtures/transport/expectations.json`: what ffprobe says of the bare transport stream fixtures (made by
/// `Fixtures/transport/make-transport.sh` from the MP4 fixtures and testsrc2).
public enum TransportReferences {
    /// One file.
    public struct File: Decodable, Sendable, CustomStringConvertible {
        /// Its name in `Fixtures/transport`.
        public var name: String
        /// 188, or 192 for M2TS.
        public var packetSize: Int
        /// ffprobe's codec name of the video stream.
        public var codecName: String
        public var width: Int
        public var height: Int
        /// Where the last picture ends, in 90 kHz ticks from the first picture.
        public var endTicks: Int64
        /// The video stream's packets in file order.
        public var videoPackets: [Packet]
        /// Frames and how to ask for them: the first, the last, and at 37, 50 and 81 % the keyframe nearest and the
        /// frame shown.
        public var roles: [Role]
        /// The size of ffmpeg's pictures of them (`references/<name>.<role>.png`).
        public var referenceSize: [Int]

        public var description: String { name }

        /// The path of the file.
        public var path: String { folder.appendingPathComponent(name).path }
        /// The file's bytes.
        public func bytes() throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }
        /// The keyframes, in file order.
        public var keyframes: [Packet] { videoPackets.filter(\.isKeyframe) }
        /// The video's coding as the TransportStream module names it (`TransportVideoCodec`'s raw value).
        public var coding: String { ["hevc": "hevc", "mpeg2video": "mpeg2", "mpeg4": "mpeg4"][codecName] ?? codecName }
        /// Whether only a build with the FFmpegDecoders trait decodes it (MPEG-2 and MPEG-4 Part 2 video).
        public var needsFFmpegDecoders: Bool { ["mpeg2video", "mpeg4"].contains(codecName) }
    }

    /// A frame to ask for: at `askedTicks` (90 kHz from the first picture), exactly or at the nearest keyframe, which
    /// shows the frame of `shownTicks`.
    public struct Role: Decodable, Sendable {
        public var role: String
        public var askedTicks: Int64
        public var exact: Bool
        public var shownTicks: Int64
    }

    /// One packet, decoded from `[position, pts, dts, keyframe]` (times in 90 kHz ticks from the first picture).
    public struct Packet: Decodable, Sendable, Equatable {
        public var position: UInt64
        public var pts: Int64
        public var dts: Int64
        public var isKeyframe: Bool

        public init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            position = try container.decode(UInt64.self)
            pts = try container.decode(Int64.self)
            dts = try container.decode(Int64.self)
            isKeyframe = try container.decode(Bool.self)
        }
    }

    /// The path of ffmpeg's picture of `role` of the file named `name`.
    public static func referencePath(_ name: String, role: String) -> String {
        folder.appendingPathComponent("references/\(name).\(role).png").path
    }

    private struct Expectations: Decodable {
        var files: [File]
    }

    /// The folder of the files.
    public static let folder = Fixtures.directory.appendingPathComponent("transport")

    /// Every file; a file that cannot be read stops the tests that use it.
    public static let all: [File] = FixtureJSON.decode(Expectations.self, at: folder.appendingPathComponent("expectations.json")).files
}
