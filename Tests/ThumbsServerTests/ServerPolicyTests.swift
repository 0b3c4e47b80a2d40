import Foundation
import Testing
@testable import ThumbsServer

/// The checks that stand between a request and any read: origin prefixes, signatures, the media root.
@Suite struct ServerPolicyTests {
    @Test(arguments: [
        ("http://origin.example/media/a.mp4", true),
        ("HTTP://ORIGIN.example:80/media/a.mp4", true),
        ("http://origin.example/media", true),
        ("http://origin.example/media-private/a.mp4", false),     // a prefix ends at a path segment
        ("http://origin.example/other/a.mp4", false),
        ("https://origin.example/media/a.mp4", false),           // another scheme, another origin
        ("http://origin.example:8080/media/a.mp4", false),       // another port
        ("http://origin.example@evil.example/media/a.mp4", false),  // user info: the host is evil.example
        ("http://evil.example/?x=http://origin.example/media/a.mp4", false),
        ("http://origin.example/media/../secret.mp4", false),    // dot segments are resolved by the server
        ("http://origin.example/media/%2e%2e/secret.mp4", false),
        ("http://origin.example/media/%2E%2E%2Fsecret.mp4", false),
        ("http://origin.example/media/a%00.mp4", false),
        ("file:///etc/passwd", false),
        ("ftp://origin.example/media/a.mp4", false),
        ("/media/a.mp4", false),
        ("http://origin.example/media/a.mp4#x", false),
        ("http://origin.example/media\\..\\a.mp4", false),
    ])
    func originPrefixesCompareParsedURLs(url: String, allowed: Bool) throws {
        let prefix = try OriginPrefix("http://origin.example/media")
        #expect((ParsedURL(url).map { prefix.contains($0) } ?? false) == allowed)
    }

    /// A deadline that is not a number of seconds a sleep can take (infinite, NaN, past the range of `Duration`, not
    /// above 0, past a day) is refused when the server is made: `inf` used to pass `thumbs serve` and trap in
    /// `Duration.seconds` at the first admitted request.
    @Test(arguments: [Double.infinity, .nan, 1e21, 0, -1, 86_401])
    func deadlinesThatNoSleepCanTakeAreRefused(_ seconds: Double) {
        for storyboard in [false, true] {
            var configuration = ServerConfiguration()
            configuration.mediaRoot = FileManager.default.temporaryDirectory.path
            if storyboard { configuration.storyboardDeadline = seconds } else { configuration.requestDeadline = seconds }
            let error = #expect(throws: ServerError.self) { try ThumbsServer(configuration: configuration) }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.detail.contains(storyboard ? "storyboardDeadline" : "--deadline") == true, "\(error?.detail ?? "")")
        }
        var configuration = ServerConfiguration()
        configuration.mediaRoot = FileManager.default.temporaryDirectory.path
        configuration.requestDeadline = 86_400
        #expect(throws: Never.self) { try ThumbsServer(configuration: configuration) }
    }

    @Test func prefixesThatAreNotPlainHTTPURLsAreRefused() {
        for text in ["origin.example/media", "file:///srv", "http://user:pass@origin.example/", "http://origin.example/?q=1", ""] {
            #expect(throws: ServerError.self) { try OriginPrefix(text) }
        }
    }

    /// RFC 4231, test case 2: key "Jefe", data "what do ya want for nothing?".
    @Test func signaturesAreHMACSHA256InHex() throws {
        let signature = RequestSignature(key: Array("Jefe".utf8))
        #expect(signature.signature(path: "what do ya want for nothing?", query: nil)
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func aSignatureCoversThePathAndEveryOtherParameter() throws {
        let signature = RequestSignature(key: Array("k3y".utf8))
        let query = "url=http%3A%2F%2Forigin%2Fa.mp4&width=320"
        let signed = signature.signedPathAndQuery(path: "/thumbnail.png", query: query)
        let sig = String(signed.split(separator: "sig=").last!)
        try signature.verify(path: "/thumbnail.png", query: query + "&sig=" + sig)
        try signature.verify(path: "/thumbnail.png", query: "sig=" + sig.uppercased() + "&" + query)
        let withSig: String = query + "&sig=" + sig
        let tampered: [(String, String)] = [
            ("/thumbnail.jpg", withSig),                             // another path
            ("/thumbnail.png", query + "&height=1&sig=" + sig),      // a parameter added
            ("/thumbnail.png", query),                               // none
            ("/thumbnail.png", withSig + "&sig=" + sig),             // twice
            ("/thumbnail.png", query + "&sig=" + String(sig.dropLast())),     // too short
            ("/thumbnail.png", query + "&sig=zz" + String(sig.dropFirst(2))),  // not hex
        ]
        for (path, query) in tampered {
            #expect(throws: ServerError.self) { try signature.verify(path: path, query: query) }
        }
    }

    @Test func theMediaRootServesOnlyRegularFilesInsideIt() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("thumbs-root-\(UUID().uuidString)")
        let root = base.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        try Data("movie".utf8).write(to: root.appendingPathComponent("sub/a.mp4"))
        try Data("secret".utf8).write(to: base.appendingPathComponent("secret.mp4"))
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("out.mp4").path,
                                                   withDestinationPath: base.appendingPathComponent("secret.mp4").path)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("in.mp4").path, withDestinationPath: "sub/a.mp4")
        let media = try MediaRoot(root.path)
        #expect(try media.file("sub/a.mp4").hasSuffix("/root/sub/a.mp4"))
        #expect(try media.file("in.mp4").hasSuffix("/root/sub/a.mp4"))
        func code(_ path: String) -> ServerError.Code? {
            do { _ = try media.file(path); return nil } catch { return error.code }
        }
        #expect(code("out.mp4") == .pathNotAllowed)
        #expect(code("../secret.mp4") == .pathNotAllowed)
        #expect(code("sub/../../secret.mp4") == .pathNotAllowed)
        #expect(code(base.appendingPathComponent("secret.mp4").path) == .pathNotAllowed)
        #expect(code("") == .pathNotAllowed)
        #expect(code("missing.mp4") == .notFound)
        #expect(code("sub") == .notFound)
        #expect(throws: ServerError.self) { try MediaRoot(base.appendingPathComponent("nothing").path) }
    }
}
