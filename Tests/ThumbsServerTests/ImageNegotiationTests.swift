import Foundation
import MP4BoxTestSupport
import RangeFetchTestSupport
import Testing
import Thumbs
@testable import ThumbsServer

/// `/thumbnail` without an extension: the format `format=` names, else the one the request's `Accept` chooses
/// (RFC 9110, 12.5.1), with `Vary: Accept`; the browsers' own Accept values choose what they show.
@Suite struct ImageNegotiationTests {
    /// The `Accept` of image requests as the browsers send them (their documentation and source), and what each gets.
    @Test(arguments: [
        ("image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8", "avif"),    // Chrome, Edge
        ("image/avif,image/webp,*/*", "avif"),                                             // Firefox 93+
        ("image/webp,*/*", "webp"),                                                        // Firefox 65-92
        ("image/webp,image/avif,image/jxl,image/heic,image/heic-sequence,video/*;q=0.8,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5",
         "avif"),                                                                          // Safari 17: both named, AVIF first of equals
        ("image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5", "jpg"),          // Safari before WebP
        ("*/*", "jpg"), ("", "jpg"), ("image/jpeg", "jpg"),
        ("image/avif;q=0, image/webp", "webp"), ("image/avif;q=0.5, image/webp;q=0.9", "avif"),
        ("image/avif; q =0, */*", "jpg"), ("image/avif;level=1;q=0.0, image/webp;q=0.001", "webp"),
        ("image/avifx, image/webpx", "jpg"), ("image/avif;q=0, image/avif", "avif"),
        ("IMAGE/AVIF ; Q=1 , image/webp", "avif"), ("image/avif;q=0,image/webp;q=0,image/jpeg;q=0", "jpg"),
        ("image/avif;q=nonsense, image/webp", "webp"),
    ])
    func acceptChoosesTheFormat(_ accept: String, _ format: String) {
        #expect(ImageNegotiation.format(accepting: accept) == format)
    }

    @Test func noAcceptIsJPEGAndLosslessIsPNG() {
        #expect(ImageNegotiation.format(accepting: nil) == "jpg")
        #expect(ImageNegotiation.format(accepting: nil, lossless: true) == "png")
        #expect(ImageNegotiation.format(accepting: "image/webp", lossless: true) == "webp")
    }

    /// Over HTTP: the negotiated answer's type follows Accept, says `Vary: Accept`, and is the same picture as the
    /// extension's route gives (the same file for AVIF); `format=` names one and varies on nothing; `/thumbnail.avif`
    /// is AVIF; a conflicting or unknown `format=` is 400.
    @Test func theNegotiatedRouteAnswersInTheFormatAcceptChooses() async throws {
        try await RunningServer.withOrigin { server, origin in
            let query = "url=\(origin.url("/media/a.mp4").queryEncoded)&width=160&time=1"
            for (accept, type) in [("image/avif,image/webp,*/*", "image/avif"), ("image/webp,*/*", "image/webp"),
                                   ("*/*", "image/jpeg")] {
                let answer = try await server.get("/thumbnail?\(query)", headers: [("Accept", accept)])
                #expect(answer.status == 200)
                #expect(answer.headers["content-type"] == type)
                #expect(answer.headers["vary"] == "accept")
                let again = try await server.get("/thumbnail?\(query)", headers: [("Accept", accept),
                                                                                 ("If-None-Match", answer.headers["etag"] ?? "")])
                #expect(again.status == 304 && again.headers["vary"] == "accept")
            }
            let avif = try await server.get("/thumbnail.avif?\(query)")
            #expect(avif.status == 200 && avif.headers["content-type"] == "image/avif" && avif.headers["vary"] == nil)
            #expect(Array(avif.body[4..<12]) == Array("ftypavif".utf8))
            let negotiated = try await server.get("/thumbnail?\(query)", headers: [("Accept", "image/avif")])
            #expect(negotiated.body == avif.body)
            let named = try await server.get("/thumbnail?\(query)&format=png", headers: [("Accept", "image/avif")])
            #expect(named.status == 200 && named.headers["content-type"] == "image/png" && named.headers["vary"] == nil)
            #expect(try await server.get("/thumbnail.png?\(query)&format=webp").status == 400)
            #expect(try await server.get("/thumbnail?\(query)&format=gif").status == 400)
            let lossless = try await server.get("/thumbnail?\(query)&lossless=1", headers: [("Accept", "image/avif")])
            #expect(lossless.status == 200 && lossless.body.count > avif.body.count)
            let losslessAnywhere = try await server.get("/thumbnail?\(query)&lossless=1", headers: [("Accept", "*/*")])
            #expect(losslessAnywhere.status == 200 && losslessAnywhere.headers["content-type"] == "image/png")
        }
    }

    /// `crop=smart` and `focus=x,y` choose what `fit=fill` keeps, each its own picture and entity tag; without
    /// `fit=fill`, both at once, or a focus outside 0...1, 400.
    @Test func cropAndFocusChooseWhatFillKeeps() async throws {
        try await RunningServer.withOrigin { server, origin in
            let query = "url=\(origin.url("/media/a.mp4").queryEncoded)&width=120&height=120&time=1&fit=fill"
            let centre = try await server.get("/thumbnail.png?\(query)")
            let left = try await server.get("/thumbnail.png?\(query)&focus=0,0.5")
            let smart = try await server.get("/thumbnail.png?\(query)&crop=smart")
            #expect([centre, left, smart].allSatisfy { $0.status == 200 })
            #expect(left.body != centre.body && left.headers["etag"] != centre.headers["etag"])
            #expect(smart.headers["etag"] != centre.headers["etag"])
            let plain = "url=\(origin.url("/media/a.mp4").queryEncoded)&width=120"
            for refused in ["\(plain)&crop=smart", "\(plain)&focus=0,0", "\(query)&crop=smart&focus=0,0", "\(query)&focus=2,0",
                            "\(query)&crop=left"] {
                #expect(try await server.get("/thumbnail.png?\(refused)").status == 400, "\(refused)")
            }
        }
    }
}
