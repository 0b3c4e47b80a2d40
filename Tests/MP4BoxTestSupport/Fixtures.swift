import ByteSources
import Foundation
import MP4Box

/// The committed fixtures and their ffprobe expectations.
public enum Fixtures {
    /// The repository root, found from this source file's path.
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The Fixtures folder.
    public static let directory = repositoryRoot.appendingPathComponent("Fixtures")

    /// The extensions fixture movies have: MP4 (`.mp4`) and QuickTime (`.mov`).
    static let movieExtensions = [".mp4", ".mov"]

    /// Names of every fixture (without `.mp4` or `.mov`), sorted.
    public static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.compactMap { file in
            movieExtensions.first(where: file.hasSuffix).map { String(file.dropLast($0.count)) }
        }.sorted()
    }()

    /// The file name of a fixture: `name.mov` where that file exists, else `name.mp4`.
    public static func fileName(_ name: String) -> String {
        let mov = name + ".mov"
        return FileManager.default.fileExists(atPath: directory.appendingPathComponent(mov).path) ? mov : name + ".mp4"
    }

    /// Names of fixtures with a video track.
    public static var videoNames: [String] { names.filter { (try? expectation($0))?.codecName != nil } }

    /// The path of a fixture.
    public static func path(_ name: String) -> String {
        directory.appendingPathComponent(fileName(name)).path
    }

    /// The bytes of a fixture.
    public static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(fileName(name))))
    }

    /// The ffprobe expectation of a fixture.
    public static func expectation(_ name: String) throws -> FixtureExpectation {
        let data = try Data(contentsOf: directory.appendingPathComponent(name + ".expect.json"))
        return try JSONDecoder().decode(FixtureExpectation.self, from: data)
    }
}

/// What ffprobe said about a fixture (written by Fixtures/make-fixtures.sh).
public struct FixtureExpectation: Decodable, Sendable {
    public struct Packet: Decodable, Sendable {
        public var pts: Int64
        public var dts: Int64
        public var duration: Int64
        public var pos: UInt64
        public var size: UInt32
        public var key: Bool
    }

    public struct SPS: Decodable, Sendable {
        public var codedWidth: Int
        public var codedHeight: Int
        public var cropLeft: Int
        public var cropRight: Int
        public var cropTop: Int
        public var cropBottom: Int
        public var croppedWidth: Int
        public var croppedHeight: Int
        public var chromaFormatIdc: Int
        public var bitDepthLuma: Int
        public var bitDepthChroma: Int
    }

    public var file: String
    public var fileSize: UInt64
    public var codecName: String?
    public var codecTag: String?
    public var width: Int?
    public var height: Int?
    /// ffprobe's coded size (for codecs without a parameter set out of band, such as VP9, its key frames').
    public var codedWidth: Int?
    public var codedHeight: Int?
    public var sampleAspectRatio: String?
    public var pixFmt: String?
    public var rotation: Double?
    public var displayMatrix: String?
    public var timeBase: String?
    public var duration: Double?
    public var formatDuration: Double?
    public var streamCount: Int
    public var audioStreamCount: Int
    public var audioSampleRate: Int?
    public var audioChannels: Int?
    public var hasCoverArt: Bool
    public var coverArtCodec: String?
    public var sps: SPS?
    public var packets: [Packet]

    /// The display matrix's linear part (a, b, c, d) as whole numbers, or identity when ffprobe reported none.
    public var matrixLinearPart: (Int, Int, Int, Int) {
        let (a, b, c, d) = FFprobeDisplayMatrix.linearPart(displayMatrix)
        return (Int(a), Int(b), Int(c), Int(d))
    }

    /// The media timescale from `timeBase` ("1/12800").
    public var timescale: UInt32? {
        guard let timeBase, let slash = timeBase.firstIndex(of: "/") else { return nil }
        return UInt32(timeBase[timeBase.index(after: slash)...])
    }
}
