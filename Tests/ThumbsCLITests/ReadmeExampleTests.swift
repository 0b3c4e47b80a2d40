import Foundation
import MP4BoxTestSupport
import RangeFetchTestSupport
import Testing

/// The README's library example (Examples/ReadmeExample), run as a process against a local server: it writes an
/// upright PNG of the fitted size, and reports a bad input through the error types `import Thumbs` gives.
@Suite struct ReadmeExampleTests {
    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("ReadmeExample")
    }

    static func run(_ url: String, in directory: URL) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = [url]
        process.currentDirectoryURL = directory
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self))
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func writesTheThumbnailOfAMovieOnAServer() async throws {
        // rotate-90 is stored sideways with a 90° matrix (ffprobe's rotation): upright, width and height swap, and
        // the picture is fitted inside 320x320 without upscaling.
        let server = try await TestHTTPServer(files: ["/movie.mp4": try Fixtures.bytes("rotate-90")])
        defer { Task { try? await server.shutdown() } }
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Self.run(server.url("/movie.mp4"), in: directory)
        #expect(result.status == 0)
        let png = try [UInt8](Data(contentsOf: directory.appendingPathComponent("thumb.png")))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // IHDR: width and height, big-endian, at bytes 16 and 20.
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        let expectation = try Fixtures.expectation("rotate-90")
        let stored = try [#require(expectation.width), #require(expectation.height)]
        #expect(abs(expectation.rotation ?? 0) == 90)
        let upright = [stored[1], stored[0]]
        let scale = min(1, 320 / Double(upright.max() ?? 1))
        #expect([width, height] == upright.map { Int((Double($0) * scale).rounded()) })
        let printed = result.stdout.split(separator: " ")
        #expect(printed.count == 3)
        #expect(Int(printed.last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") == server.requests.count)
    }

    @Test func reportsAFileThatIsNotAMovie() async throws {
        let server = try await TestHTTPServer(files: ["/notes.mp4": Array(String(repeating: "not a movie\n", count: 200).utf8)])
        defer { Task { try? await server.shutdown() } }
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Self.run(server.url("/notes.mp4"), in: directory)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("not a movie we can read: "))
    }

    @Test func reportsAMissingFile() async throws {
        let server = try await TestHTTPServer(files: [:])
        defer { Task { try? await server.shutdown() } }
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Self.run(server.url("/missing.mp4"), in: directory)
        #expect(result.stdout.hasPrefix("could not fetch it: "))
    }

    @Test func theReadmeQuotesTheExampleAsItIs() throws {
        let root = Fixtures.directory.deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: root.appendingPathComponent("Examples/ReadmeExample/main.swift"), encoding: .utf8)
        // The file without its first two lines (the comment that points at the README).
        let quoted = source.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).joined(separator: "\n")
        let marker = try #require(readme.range(of: "This is `Examples/ReadmeExample/main.swift`"))
        let block = try #require(readme[marker.upperBound...].range(of: "```swift\n"))
        let end = try #require(readme[block.upperBound...].range(of: "```\n"))
        #expect(String(readme[block.upperBound..<end.lowerBound]) == quoted)
    }
}
