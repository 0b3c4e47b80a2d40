import Foundation
import RangeFetchTestSupport
import Testing
@testable import ThumbsServer

/// What an error's detail may say: never a URL's query or user info, never where the server's files are, and
/// nothing rewritten from what the client sent.
@Suite struct ErrorDetailTests {
    /// An origin that redirects out of the allowed prefix, to a presigned URL meant for someone else: the 502 names
    /// the target's scheme, host and path only. Its query used to reach the client whole.
    @Test func aRefusedRedirectNamesOnlyTheSchemeHostAndPathOfItsTarget() async throws {
        let presigned = "/private/a.mp4?X-Amz-Credential=AKIDEXAMPLE%2F20261126&X-Amz-Signature=5ec2e7"
        let faults = TestHTTPServer.Faults { $0.redirects = ["/media/a.mp4": presigned,
                                                             "/media/b.mp4": "http://user:hunter2@127.0.0.1:9/private/b.mp4"] }
        try await RunningServer.withOrigin(faults) { server, origin in
            for (name, target) in [("a.mp4", "/private/a.mp4?…"), ("b.mp4", "http://127.0.0.1:9/private/b.mp4")] {
                let answer = try await server.get("/thumbnail.png?url=" + origin.url("/media/" + name).queryEncoded)
                let detail = answer.error["detail"] ?? ""
                #expect(answer.status == 502)
                #expect(detail.contains(target), "\(detail)")
                for secret in ["X-Amz", "AKIDEXAMPLE", "5ec2e7", "hunter2", "user:"] {
                    #expect(!detail.contains(secret), "\(detail)")
                }
            }
        }
    }

    /// A URL the client sent is shown without its query or user info when refused.
    @Test func aRefusedURLIsShownWithoutItsQueryOrUserInfo() async throws {
        try await RunningServer.withOrigin { server, _ in
            let url = "http://me:pass@elsewhere.example/v.mp4?token=abc"
            let answer = try await server.get("/thumbnail.png?url=" + url.queryEncoded)
            let detail = answer.error["detail"] ?? ""
            #expect(answer.status == 403)
            #expect(detail.contains("http://elsewhere.example/v.mp4?…"), "\(detail)")
            #expect(!detail.contains("pass") && !detail.contains("token"), "\(detail)")
        }
    }

    /// A file in the media root that is not a movie is named as it was asked for; a URL the client sends that holds
    /// the root's path comes back as sent (the root used to be deleted from every detail, so a client could test
    /// guesses of the server's folders).
    @Test func theMediaRootNeverShowsInADetailAndNothingSentIsRewritten() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("thumbs-details-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data(repeating: 0x41, count: 4096).write(to: root.appendingPathComponent("sub/text.mp4"))
        let resolved = try MediaRoot(root.path).path
        try await RunningServer.withOrigin(configure: { $0.mediaRoot = root.path }) { server, origin in
            let local = try await server.get("/thumbnail.png?path=sub/text.mp4")
            let detail = local.error["detail"] ?? ""
            #expect(local.status == 415)
            #expect(detail.contains("sub/text.mp4") && !detail.contains(resolved), "\(detail)")

            let guess = "http://guess.example" + resolved + "/x.mp4"
            let sent = try await server.get("/thumbnail.png?url=" + guess.queryEncoded)
            #expect(sent.status == 403)
            #expect(sent.error["detail"]?.contains(guess) == true, "\(sent.error["detail"] ?? "")")
        }
    }
}
