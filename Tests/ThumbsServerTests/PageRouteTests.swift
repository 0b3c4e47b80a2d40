import Foundation
import MP4BoxTestSupport
import RangeFetchTestSupport
import Testing
@testable import ThumbsServer

/// `/` without a browser: served only with something to list, its links signed when the server signs.
@Suite struct PageRouteTests {
    @Test func thePagesLinksAreSignedAndWork() async throws {
        let root = try PageBrowserTests.mediaRoot(count: 2)
        defer { try? FileManager.default.removeItem(at: root) }
        // A name a browser percent-encodes: the signed link must be the URL it sends.
        try FileManager.default.moveItem(at: root.appendingPathComponent("video-001.mp4"), to: root.appendingPathComponent("café 1.mp4"))
        var configuration = ServerConfiguration()
        configuration.mediaRoot = root.path
        configuration.signingKey = Array("page key".utf8)
        try await RunningServer.with(configuration) { server in
            let page = try await server.get("/")
            #expect(page.status == 200)
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            let html = String(decoding: page.body, as: UTF8.self)
            let sources = html.matches(of: /src="([^"]+)"/).map { String($0.output.1).replacingOccurrences(of: "&amp;", with: "&") }
            #expect(sources.count == 2)
            for source in sources {
                #expect(source.contains("&sig="))
                let signed = try await server.get(source)
                #expect(signed.status == 200)
                let unsigned = try await server.get(String(source.prefix { $0 != "&" }) + "&width=320")
                #expect(unsigned.status == 403)
            }
        }
        try await RunningServer.with(ServerConfiguration()) { server in
            let nothing = try await server.get("/")
            #expect(nothing.status == 404)
        }
    }
}
