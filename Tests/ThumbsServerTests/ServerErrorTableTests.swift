import ByteSources
import Foundation
import FrameDecode
import MP4BoxTestSupport
import MP4Box
import RangeFetch
import RangeFetchTestSupport
import Storyboards
import StreamManifests
import Testing
import Thumbs
@testable import ThumbsServer
import TransportStream

/// Every code of every error type the layers below throw has an answer that says whose fault it is: the policy of
/// DESIGN.md (bad media 4xx, an origin's failure 502, the service's capacity 503/504, 500 only for our own failure),
/// stated here case by case, not read back from the table.
@Suite struct ServerErrorTableTests {
    /// The codes that are the service's own failure: the only ones answered 500.
    static let ourOwn: Set<String> = [
        "DecodeError.decoderUnavailable", "DecodeError.restartFromKeyframe",
        "ThumbnailError.encodingFailed", "ThumbnailError.writeFailed",
        "ServerError.internalError", "ServerError.invalidConfiguration",
    ]

    /// Each error type, every case it has, made into an error and answered.
    static func everyAnswer() -> [(name: String, status: Int)] {
        func named<C: RawRepresentable & CaseIterable>(_ type: String, _ codes: C.Type, _ make: (C) -> any Error)
            -> [(String, Int)] where C.RawValue == String {
            codes.allCases.map { code in ("\(type).\(code.rawValue)", Int(ServerError(answering: make(code)).status.code)) }
        }
        return named("FetchError", FetchError.Code.self) { FetchError($0, url: "http://origin.example/a.mp4", "x") }
            + named("ReadError", ReadError.Code.self) { ReadError($0, input: "a.mp4", "x") }
            + named("MP4Error", MP4Error.Code.self) { MP4Error($0, path: "moov", offset: 0, "x") }
            + named("ManifestError", ManifestError.Code.self) { ManifestError($0, "x") }
            + named("TransportStreamError", TransportStreamError.Code.self) { TransportStreamError($0, "x") }
            + named("DecodeError", DecodeError.Code.self) { DecodeError($0, "x") }
            + named("ThumbnailError", ThumbnailError.Code.self) { ThumbnailError($0, "x") }
            + named("StoryboardError", StoryboardError.Code.self) { StoryboardError($0, "x") }
            + named("ServerError", ServerError.Code.self) { ServerError($0, "x") }
    }

    @Test func onlyTheServicesOwnFailuresAre500() {
        let answers = Self.everyAnswer()
        #expect(answers.count > 70)
        for (name, status) in answers {
            #expect((status == 500) == Self.ourOwn.contains(name), "\(name) is answered \(status)")
        }
    }

    /// Malformed media of every kind (movie, playlist or manifest, transport stream, codec) is a 4xx, as is an input
    /// past its budget; an origin that fails is 502.
    @Test func badMediaIs4xxAndTheOriginsFailures502() {
        let answers = Dictionary(uniqueKeysWithValues: Self.everyAnswer())
        for prefix in ["ManifestError.", "TransportStreamError.", "StoryboardError."] {
            for (name, status) in answers where name.hasPrefix(prefix) {
                #expect((400..<500).contains(status), "\(name) is answered \(status)")
            }
        }
        for (name, status) in answers where name.hasPrefix("MP4Error.") && name != "MP4Error.readFailed" {
            #expect(status == 415, "\(name) is answered \(status)")
        }
        #expect(answers["MP4Error.readFailed"] == 502)
        #expect(answers["FetchError.budgetExceeded"] == 422)
        #expect(answers["ThumbnailError.limitExceeded"] == 422)
        #expect(answers["FetchError.notFound"] == 404)
        for code in ["serverError", "connectionReset", "timedOut", "truncatedBody", "resourceChanged", "forbidden"] {
            #expect(answers["FetchError.\(code)"] == 502, "FetchError.\(code)")
        }
        for code in ["unsupportedCodec", "unsupportedFeature", "malformedSample", "decoderRejected"] {
            #expect(answers["DecodeError.\(code)"] == 415, "DecodeError.\(code)")
        }
        #expect(answers["ServerError.overloaded"] == 503 && answers["ServerError.deadlineExceeded"] == 504)
    }

    /// A playlist with a negative EXTINF, a DASH representation that says neither its segments' duration nor their
    /// timeline, and a playlist whose segment is not a transport stream: each route answers 415 naming why (they
    /// were 500 `internalError`).
    @Test func malformedStreamsAre415OnEveryRoute() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("thumbs-bad-streams-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let files: [(String, String)] = [
            ("negative.m3u8", "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXTINF:-5,\nsegment.ts\n#EXT-X-ENDLIST\n"),
            ("untimed.mpd", """
                <?xml version="1.0"?>
                <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT8S"
                     profiles="urn:mpeg:dash:profile:isoff-live:2011">
                  <Period><AdaptationSet mimeType="video/mp4" contentType="video">
                    <Representation id="v" codecs="avc1.64001f" bandwidth="500000" width="320" height="240">
                      <SegmentTemplate media="v-$Number$.m4s" initialization="v-init.mp4" timescale="1000"/>
                    </Representation>
                  </AdaptationSet></Period>
                </MPD>
                """),
            ("junk.m3u8", "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\njunk.ts\n#EXT-X-ENDLIST\n"),
            ("junk.ts", String(repeating: "not a transport stream ", count: 2000)),
        ]
        for (name, text) in files {
            try Data(text.utf8).write(to: root.appendingPathComponent(name))
        }
        var configuration = ServerConfiguration()
        configuration.mediaRoot = root.path
        try await RunningServer.with(configuration) { server in
            // `/info` of a playlist reads no segment, so the junk segment is not its concern.
            for (name, routes) in [("negative.m3u8", ["/thumbnail.png?", "/info?", "/storyboard.json?"]),
                                   ("untimed.mpd", ["/thumbnail.png?", "/info?", "/storyboard.json?"]),
                                   ("junk.m3u8", ["/thumbnail.png?", "/storyboard.json?"])] {
                for route in routes {
                    let answer = try await server.get(route + "path=" + name)
                    #expect(answer.status == 415, "\(route)\(name): \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
                    #expect(answer.error["error"] == "unsupportedMedia", "\(route)\(name)")
                }
            }
        }
    }

    /// A movie that needs more origin requests than `maximumOriginRequests` is 422 `overBudget`, naming the budget (a
    /// hostile index is the input's fault, not the origin's).
    @Test func aPictureMoreRequestsThanItsBudgetIs422() async throws {
        var faults = TestHTTPServer.Faults()
        faults.multipleRanges = .firstRange  // the ends cost two requests
        let origin = try await TestHTTPServer(files: ["/media/a.mp4": try Fixtures.bytes("h264-bframes")], faults: faults)
        defer { Task { try? await origin.shutdown() } }
        var configuration = try ThumbnailRouteTests.configuration(allowing: origin)
        configuration.maximumOriginRequests = 1
        try await RunningServer.with(configuration) { server in
            let answer = try await server.get("/thumbnail.png?url=" + origin.url("/media/a.mp4").queryEncoded)
            #expect(answer.status == 422, "\(String(decoding: answer.body, as: UTF8.self))")
            #expect(answer.error["error"] == "overBudget")
            #expect(answer.error["detail"]?.contains("request budget of 1") == true, "\(answer.error)")
            #expect(origin.requestCount == 1)
        }
    }
}
