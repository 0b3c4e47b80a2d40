import Foundation
import MP4Box
import MP4BoxTestSupport
import RangeFetch
import RangeFetchTestSupport
import Testing
import Thumbs

/// An origin that speaks HTTPS with HTTP/2, as CDNs and Google Cloud Storage do (nginx with a certificate made at test
/// time, trusted by the test's client only): the ends go as two streams of one connection, and the picture is the
/// file's.
@Suite(.timeLimit(.minutes(1))) struct HTTP2OriginTests {
    static let nginx: Nginx? = try? Nginx.tls(root: Fixtures.directory.path)

    @Test(.enabled(if: Nginx.binary != nil, "nginx is installed by scripts/install-deps.sh"),
          arguments: ["h264-faststart", "h264-bframes", "fragmented"])
    func aThumbnailOverHTTP2IsTheFilesWithTheEndsAsStreamsOfOneConnection(_ name: String) async throws {
        let nginx = try #require(Self.nginx, "nginx did not start with TLS")
        let target = "/" + Fixtures.fileName(name) + "?case=" + UUID().uuidString
        let client = RangeFetchClient(trustedCertificates: [nginx.certificatePath])
        do {
            var options = ThumbnailOptions()
            options.maximumSize = PixelSize(width: 160, height: 160)
            var locatorOptions = MovieLocator.Options(fragmentReading: .onDemand)
            locatorOptions.headSize = 16 * 1024
            locatorOptions.tailSize = 16 * 1024
            let source = try HTTPByteSource(url: nginx.httpsURL(String(target.dropFirst())), client: client)
            let remote = try await ThumbnailGenerator(source: source, options: options, locator: MovieLocator(options: locatorOptions))
                .image(at: .seconds(1.5))
            let local = try await ThumbnailGenerator(path: Fixtures.path(name), options: options).image(at: .seconds(1.5))
            #expect(remote.encoded == local.encoded)
            let stats = try #require(await source.statistics)
            #expect(stats.roundTrips <= (name == "fragmented" ? 3 : 2))
            // nginx logs a request after answering it: give the log a moment.
            var logged: [Nginx.ProtocolLogLine] = []
            for _ in 0..<50 {
                logged = nginx.protocolLog.filter { $0.target == target }
                if logged.count >= stats.requests { break }
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            #expect(logged.count == stats.requests)
            #expect(logged.allSatisfy { $0.protocolName == "HTTP/2.0" && $0.status == 206 }, "\(logged)")
            // Every request of the thumbnail went over one connection, the ends as two streams side by side.
            #expect(Set(logged.map(\.connection)).count == 1, "\(logged)")
            #expect(stats.connectionsOpened == 1)
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }
}
