import Foundation
import MP4BoxTestSupport
import Testing

/// `thumbs --version`: what a bug report needs, checked against git and Debian's package database.
@Suite struct VersionCommandTests {
    /// The Debian package of each library and the version its first line names: what dpkg says is installed.
    static let packages = [("openh264", "libopenh264-7"), ("libde265", "libde265-0"), ("dav1d", "libdav1d6"),
                           ("libpng", "libpng16-16"), ("libwebp", "libwebp7")]

    static var hasDpkg: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-query") }

    /// The upstream version dpkg has for `package` ("2.3.1+dfsg-3" is 2.3.1; an epoch "1:" dropped).
    static func installedVersion(of package: String) throws -> String {
        let run = try CapturedRun.waiting(URL(fileURLWithPath: "/usr/bin/dpkg-query"), ["-W", "-f=${Version}", package])
        let full = String(decoding: run.stdout, as: UTF8.self)
        let withoutEpoch = full.split(separator: ":").last.map(String.init) ?? full
        return String(withoutEpoch.prefix { $0.isNumber || $0 == "." })
    }

    /// It used to be a usage error (exit 64). Now exit 0, the version and the commit this checkout is at, then every
    /// C library with the version it reports, each the one Debian installed.
    @Test(.enabled(if: hasDpkg, "dpkg-query tells which library versions are installed"))
    func versionNamesTheCommitAndEveryLinkedLibrary() async throws {
        let output = try await InfoCommandTests.run(["--version"])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        let git = try CapturedRun.waiting(URL(fileURLWithPath: "/usr/bin/git"),
                                          ["-C", Fixtures.repositoryRoot.path, "rev-parse", "HEAD"])
        let head = String(decoding: git.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        // Where git cannot read the checkout (none, or not the owner's), the build could not either.
        let commit = head.count == 40 ? String(head.prefix(12)) : "unknown"
        #expect(lines.first?.hasPrefix("thumbs ") == true && lines.first?.contains("(commit \(commit)") == true,
                "\(lines.first ?? "") at \(head)")
        for (library, package) in Self.packages {
            let line = lines.first { $0.hasPrefix(library + " ") }
            #expect(line == "\(library) \(try Self.installedVersion(of: package))", "\(line ?? "no \(library) line")")
        }
        #expect(lines.contains { $0.hasPrefix("libjpeg-turbo libturbojpeg.so.") }, "\(lines)")
    }
}
