import Foundation
import MP4BoxTestSupport
import Testing

/// The README quotes the example package (Examples/Thumbnail, built and run by scripts/check-example.sh) as it is.
@Suite struct ReadmeExampleTests {
    static let root = Fixtures.directory.deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The Swift code block of the README that follows `marker`.
    static func block(after marker: String, in readme: String) throws -> String {
        let found = try #require(readme.range(of: marker))
        let start = try #require(readme[found.upperBound...].range(of: "```swift\n"))
        let end = try #require(readme[start.upperBound...].range(of: "```\n"))
        return String(readme[start.upperBound..<end.lowerBound])
    }

    @Test func theReadmeQuotesTheExampleSourceAsItIs() throws {
        let readme = try Self.read("README.md")
        let source = try Self.read("Examples/Thumbnail/Sources/ThumbnailExample/main.swift")
        #expect(try Self.block(after: "and `Sources/ThumbnailExample/main.swift`", in: readme) == source)
    }

    @Test func theReadmeQuotesTheExampleDependencies() throws {
        let readme = try Self.read("README.md")
        let manifest = try Self.read("Examples/Thumbnail/Package.swift")
        let quoted = try Self.block(after: "Its `Package.swift` says:", in: readme)
        // The same product and target lines; only the path differs (the example sits inside this repository).
        for line in quoted.split(separator: "\n") where !line.contains("path:") {
            #expect(manifest.contains(line.trimmingCharacters(in: .whitespaces)), "\(line)")
        }
        #expect(manifest.contains(#".package(name: "Thumbs", path: "../..")"#))
    }
}
