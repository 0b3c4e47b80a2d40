@testable import RangeFetch
import RangeFetchTestSupport
import Testing

/// What a message shows of a URL: scheme, host, port and path; never user info, a query or a fragment.
@Suite struct URLRedactionTests {
    @Test(arguments: [
        ("http://origin.example/media/a.mp4", "http://origin.example/media/a.mp4"),
        ("https://b.s3.amazonaws.com/k.mp4?X-Amz-Credential=AKID&X-Amz-Signature=5ec2", "https://b.s3.amazonaws.com/k.mp4?…"),
        ("http://origin.example:8080/a.mp4#t=10", "http://origin.example:8080/a.mp4?…"),
        ("http://user:hunter2@origin.example/a.mp4", "http://origin.example/a.mp4"),
        ("http://user:hun@ter2@origin.example/a.mp4?x", "http://origin.example/a.mp4?…"),  // the last @ ends user info
        ("http://origin.example?token=1", "http://origin.example?…"),
        ("http://origin.example?token=1/a.mp4", "http://origin.example?…"),
        ("http://user:pa?ss@origin.example/a.mp4", "http://…"),  // parsers disagree where the host is: none shown
        ("http://[::1]:9000/a.mp4?q", "http://[::1]:9000/a.mp4?…"),
        ("s3://bucket/key.mp4", "s3://bucket/key.mp4"),
        ("not a url?secret", "…"),
        ("plain", "plain"),
    ])
    func aURLIsShownWithoutUserInfoQueryOrFragment(url: String, shown: String) {
        #expect(URLRedaction.shown(url) == shown)
    }

    /// A redirect refused names its target the same way (its query may be someone else's presigned URL).
    @Test func aRefusedRedirectNamesItsTargetWithoutItsQuery() async throws {
        let redirects = ["/m.bin": "/private/m.bin?X-Amz-Signature=5ec2", "/u.bin": "http://u:hunter2@127.0.0.1:9/p.bin"]
        try await TestHTTPServer.serving([:], faults: .init { $0.redirects = redirects }) { server in
            let options = FetchOptionsTests.options { $0.allowsRedirect = { _ in false } }
            for (path, target) in [("/m.bin", "/private/m.bin?…"), ("/u.bin", "http://127.0.0.1:9/p.bin")] {
                let source = try HTTPByteSource(url: server.url(path), options: options)
                let error = try await #require(throws: FetchError.self) { _ = try await source.read(0..<10) }
                #expect(error.code == .redirectRefused)
                #expect(error.description.contains(target), "\(error)")
                #expect(!error.description.contains("5ec2") && !error.description.contains("hunter2"), "\(error)")
            }
        }
    }
}
