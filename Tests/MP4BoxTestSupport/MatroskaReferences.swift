import Foundation

/// `Fixtures/matroska/expectations.json`: what ffprobe says of the Matroska and WebM fixtures (made by
/// `Fixtures/matroska/make-matroska.sh` from the MP4 fixtures, by ffmpeg and mkvmerge).
public enum MatroskaReferences {
    /// One file.
    public struct File: Decodable, Sendable, CustomStringConvertible {
        /// Its name in `Fixtures/matroska`.
        public var name: String
        /// ffprobe's format name (`matroska,webm`).
        public var formatName: String
        /// ffprobe's duration in seconds (without a Duration element, where its last packet ends).
        public var duration: Double
        /// Whether the file has a Duration element, and Cues (mkvinfo's reading).
        public var hasDuration: Bool
        public var hasCues: Bool
        /// ffprobe's codec name of the video stream.
        public var codecName: String
        public var width: Int
        public var height: Int
        /// ffprobe's sample aspect ratio (`4:3`).
        public var sampleAspectRatio: String
        /// The video stream's packets in file order: pts in milliseconds, keyframe flag, size in bytes.
        public var videoPackets: [Packet]
        /// The packets of the other streams.
        public var otherPacketCount: Int
        /// Four frames and how to ask for them: the keyframe nearest the middle, the frame at the middle, the first
        /// and the last.
        public var roles: [Role]
        /// The size of ffmpeg's pictures of them (`references/<name>.<role>.png`).
        public var referenceSize: [Int]

        public var description: String { name }

        /// The path of the file.
        public var path: String { folder.appendingPathComponent(name).path }
        /// The file's bytes.
        public func bytes() throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }
        /// The keyframes' pts, in file order.
        public var keyframeTimes: [Int64] { videoPackets.filter(\.isKeyframe).map(\.pts) }
    }

    /// A frame to ask for: at `askedMilliseconds`, exactly or at the nearest keyframe, which shows the frame of
    /// `shownMilliseconds`.
    public struct Role: Decodable, Sendable {
        public var role: String
        public var askedMilliseconds: Int64
        public var exact: Bool
        public var shownMilliseconds: Int64
    }

    /// The path of ffmpeg's picture of `role` of the file named `name`.
    public static func referencePath(_ name: String, role: String) -> String {
        folder.appendingPathComponent("references/\(name).\(role).png").path
    }

    /// One packet, decoded from `[pts, keyframe, size]`.
    public struct Packet: Decodable, Sendable, Equatable {
        public var pts: Int64
        public var isKeyframe: Bool
        public var size: Int

        public init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            pts = try container.decode(Int64.self)
            isKeyframe = try container.decode(Bool.self)
            size = try container.decode(Int.self)
        }
    }

    private struct Expectations: Decodable {
        var files: [File]
    }

    /// The folder of the files.
    public static let folder = Fixtures.directory.appendingPathComponent("matroska")

    /// Every file; a file that cannot be read stops the tests that use it.
    public static let all: [File] = FixtureJSON.decode(Expectations.self, at: folder.appendingPathComponent("expectations.json")).files
}
