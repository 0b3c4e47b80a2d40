import NIOHTTP1
@testable import RangeFetch
import Testing

/// The decision at the heart of `HTTPByteSource`, from what was asked, the status and the headers alone, for each
/// kind of origin: multipart (nginx), one range at a time with the whole object for several (S3, GCS, R2, Azure),
/// several refused with 416 (OSS), suffix ranges refused or the length never told, and Range ignored.
@Suite struct RangeAnswerTests {
    /// A minute of 1080p (61 MB, shorter than the 64 MiB a source keeps), and a resource longer than that.
    static let length: UInt64 = 61_000_000
    static let long: UInt64 = 100 << 20
    static let kept: UInt64 = 64 << 20
    static let gap: UInt64 = 64 * 1024

    static func decide(_ spec: RangeSpec, _ status: Int, _ headers: [(String, String)]) -> RangeAnswer {
        RangeAnswer.decide(spec, status: status, headers: HTTPHeaders(headers), maximumKeptBodyBytes: kept, leadingGap: gap)
    }

    static let ends = RangeSpec.ends(head: 81920, tail: 81920, length: nil)

    // MARK: multipart (nginx)

    @Test func aMultipartAnswerIsReadPartByPartAndShowsTheOriginAnswersSo() {
        let answer = Self.decide(Self.ends, 206, [("Content-Type", "multipart/byteranges; boundary=XYZ")])
        #expect(answer.action == .parts(boundary: "XYZ"))
        #expect(answer.answersMultipart == true)
        let several = Self.decide(.several([0..<10, 100..<110]), 206, [("Content-Type", "multipart/byteranges; boundary=b")])
        #expect(several.action == .parts(boundary: "b"))
    }

    @Test func aMultipartContentTypeToOneRangeIsNotReadAsParts() {
        let answer = Self.decide(.bounded(0..<10), 206, [("Content-Type", "multipart/byteranges; boundary=b")])
        #expect(answer.action == .fail(.invalidResponse, detail: "206 without a usable content-range", retryable: false))
    }

    // MARK: one range at a time, the whole object for several (S3, GCS, R2, Azure)

    @Test func theWholeObjectForTheEndsIsReadOnlyAsFarAsTheHead() {
        let answer = Self.decide(Self.ends, 200, [("Content-Length", "\(Self.length)")])
        #expect(answer.action == .prefix(81920))
        #expect(answer.answersMultipart == false)
        #expect(answer.length == Self.length)
        #expect(answer.ignoredRange)
    }

    @Test func theWholeObjectForSeveralRangesIsReadOnlyAsFarAsTheRangesNearItsStart() {
        // A keyframe near the start, one 30 KB after it (too many bytes between them to read), one far away.
        let spec = RangeSpec.several([48..<30_000, 60_000..<90_000, 5_000_000..<5_040_000])
        let answer = Self.decide(spec, 200, [("Content-Length", "\(Self.length)")])
        #expect(answer.action == .prefix(30_000))
        #expect(answer.answersMultipart == false)
        // Keyframes that start far from the start: nothing is read.
        let far = Self.decide(.several([1_000_000..<1_010_000, 2_000_000..<2_010_000]), 200,
                              [("Content-Length", "\(Self.length)")])
        #expect(far.action == .prefix(0))
    }

    @Test func aWholeAnswerToRangesThatAskForAllOfItIsKept() {
        // nginx answers so when the ranges together are as long as the resource.
        let answer = Self.decide(.ends(head: 3000, tail: 2000, length: nil), 200, [("Content-Length", "4096")])
        #expect(answer.action == .keepWhole)
        #expect(answer.answersMultipart == nil)
        #expect(!answer.ignoredRange)
    }

    @Test func leadingEndStopsAtTheFirstGapWiderThanAllowed() {
        #expect(RangeAnswer.leadingEnd(of: [0..<10, 20..<30, 100..<110], gap: 10) == 30)
        #expect(RangeAnswer.leadingEnd(of: [11..<20], gap: 10) == 0)
        #expect(RangeAnswer.leadingEnd(of: [10..<20, 15..<40], gap: 0) == 0)
        #expect(RangeAnswer.leadingEnd(of: [0..<20, 15..<40, 40..<41], gap: 0) == 41)
    }

    @Test func leadingEndReadsBytesNotAskedForOnlyWhereTheyAreFew() {
        // 4 KiB not asked for (before the first range) is always allowed.
        #expect(RangeAnswer.leadingEnd(of: [4096..<4196], gap: 64 * 1024) == 4196)
        #expect(RangeAnswer.leadingEnd(of: [4097..<4197], gap: 64 * 1024) == 0)
        // Past that, a twentieth of the bytes asked for: 10 KB between 200 KB of keyframes, not 20 KB.
        #expect(RangeAnswer.leadingEnd(of: [0..<100_000, 110_000..<210_000], gap: 64 * 1024) == 210_000)
        #expect(RangeAnswer.leadingEnd(of: [0..<100_000, 110_000..<210_000, 215_000..<315_000], gap: 64 * 1024) == 315_000)
        #expect(RangeAnswer.leadingEnd(of: [0..<100_000, 120_000..<130_000], gap: 64 * 1024) == 100_000)
    }

    @Test(arguments: RangeAnswer.objectStoreHeaders)
    func anObjectStoresOwnHeaderShowsOneRangeAtATime(_ header: String) {
        let answer = Self.decide(.bounded(0..<81920), 206, [("Content-Range", "bytes 0-81919/\(Self.length)"), (header, "x")])
        #expect(answer.answersMultipart == false)
        // A multipart answer still says what it says.
        let parts = Self.decide(Self.ends, 206, [("Content-Type", "multipart/byteranges; boundary=b"), (header, "x")])
        #expect(parts.answersMultipart == true)
        #expect(Self.decide(.bounded(0..<81920), 206, [("Content-Range", "bytes 0-81919/\(Self.length)")]).answersMultipart == nil)
    }

    // MARK: several ranges refused (OSS)

    @Test func severalRangesRefusedAreAskedForSeparately() {
        let answer = Self.decide(Self.ends, 416, [("Content-Range", "bytes */\(Self.length)")])
        #expect(answer.action == .askSeparately)
        #expect(answer.answersMultipart == false)
        #expect(answer.length == Self.length)
        let several = Self.decide(.several([0..<10, 100..<110]), 416, [])
        #expect(several.action == .askSeparately)
    }

    @Test func severalRangesPastTheEndOfAnEmptyResourceAreNothing() {
        let answer = Self.decide(Self.ends, 416, [("Content-Range", "bytes */0")])
        #expect(answer.action == .pastEnd(length: 0))
        #expect(answer.answersMultipart == nil)
    }

    // MARK: suffix ranges refused, the length never told

    @Test(arguments: [(416, [(String, String)]()), (200, [("Content-Length", "\(length)")]), (416, [("Content-Range", "bytes */\(length)")])])
    func aTailBesideTheHeadThatIsNotAnsweredAsOneIsAskedForLater(_ status: Int, _ headers: [(String, String)]) {
        let answer = Self.decide(.tailBesideHead(81920), status, headers)
        #expect(answer.action == .askSeparately)
        #expect(answer.answersMultipart == nil)
    }

    @Test func aRangeWhoseLengthIsNeverToldIsRead() {
        let head = Self.decide(.bounded(0..<81920), 206, [("Content-Range", "bytes 0-81919/*")])
        #expect(head.action == .range(ContentRange("bytes 0-81919/*")!))
        #expect(head.length == nil)
        let tail = Self.decide(.tailBesideHead(81920), 206, [("Content-Range", "bytes 900-81919/*")])
        #expect(tail.action == .range(ContentRange("bytes 900-81919/*")!))
    }

    @Test func aSuffixLongerThanAskedIsAMismatch() {
        let answer = Self.decide(.tailBesideHead(100), 206, [("Content-Range", "bytes 0-999/1000")])
        #expect(answer.action == .fail(.contentRangeMismatch, detail: "content-range bytes 0-999/1000 is not the last 100 bytes",
                                       retryable: false))
    }

    // MARK: Range ignored

    @Test func theWholeResourceForOneRangeIsKeptWhenShortEnoughElseReadOnlyToTheRange() {
        let short = Self.decide(.bounded(1000..<2000), 200, [("Content-Length", "\(Self.length)")])
        #expect(short.action == .keepWhole)
        #expect(short.ignoredRange)
        #expect(short.answersMultipart == nil)
        let long = Self.decide(.bounded(1000..<2000), 200, [("Content-Length", "\(Self.long)")])
        #expect(long.action == .window(1000..<2000))
        let unknown = Self.decide(.bounded(1000..<2000), 200, [])
        #expect(unknown.action == .keepWhole)  // read until it passes the limit, then only as far as the range
    }

    @Test func theWholeResourceForASuffixIsKeptOnlyWhenItsLengthIsKnownAndShortEnough() {
        #expect(Self.decide(.suffix(100), 200, [("Content-Length", "\(Self.length)")]).action == .keepWhole)
        #expect(Self.decide(.suffix(100), 200, [("Content-Length", "\(Self.long)")]).action == .tailOfWhole(100))
        #expect(Self.decide(.suffix(100), 200, []).action == .tailOfWhole(100))
    }

    // MARK: the first range alone

    @Test func theFirstRangeAloneShowsOneRangeAtATime() {
        let ends = Self.decide(Self.ends, 206, [("Content-Range", "bytes 0-81919/\(Self.length)")])
        #expect(ends.action == .range(ContentRange("bytes 0-81919/\(Self.length)")!))
        #expect(ends.answersMultipart == false)
        let several = Self.decide(.several([0..<10, 100..<110]), 206, [("Content-Range", "bytes 0-9/1000")])
        #expect(several.answersMultipart == false)
        // Ranges merged into one say nothing about multipart.
        let merged = Self.decide(.several([0..<10, 100..<110]), 206, [("Content-Range", "bytes 0-109/1000")])
        #expect(merged.action == .range(ContentRange("bytes 0-109/1000")!))
        #expect(merged.answersMultipart == nil)
        let whole = Self.decide(.ends(head: 3000, tail: 2000, length: nil), 206, [("Content-Range", "bytes 0-4095/4096")])
        #expect(whole.answersMultipart == nil)
    }

    @Test func aRangeThatIsNotTheOneAskedForIsAMismatch() {
        for (spec, header) in [(RangeSpec.bounded(0..<100), "bytes 1-100/4096"), (.bounded(0..<100), "bytes 0-100/4096"),
                               (Self.ends, "bytes 10-99/4096"), (.several([10..<20, 30..<40]), "bytes 10-40/4096")] {
            let answer = Self.decide(spec, 206, [("Content-Range", header)])
            #expect(answer.action == .fail(.contentRangeMismatch, detail: "content-range \(header) does not match the request",
                                           retryable: false), "\(spec.header) answered \(header)")
        }
    }

    // MARK: statuses

    @Test func statusesOtherThanRangesAreRedirectsOrFailures() {
        #expect(Self.decide(.bounded(0..<1), 302, [("Location", "/b.mp4")]).action == .redirect(location: "/b.mp4"))
        #expect(Self.decide(.bounded(0..<1), 307, []).action == .redirect(location: nil))
        #expect(Self.decide(.bounded(0..<1), 404, []).action == .fail(.notFound, detail: "not found (404)", retryable: false))
        #expect(Self.decide(.bounded(0..<1), 403, []).action == .fail(.forbidden, detail: "access denied (403)", retryable: false))
        #expect(Self.decide(.bounded(0..<1), 503, []).action == .fail(.serverError, detail: "server error 503", retryable: true))
        #expect(Self.decide(.bounded(0..<1), 500, []).action == .fail(.serverError, detail: "server error 500", retryable: false))
        #expect(Self.decide(.bounded(10..<20), 416, [("Content-Range", "bytes */5")]).action == .pastEnd(length: 5))
        #expect(Self.decide(.bounded(0..<20), 416, [("Content-Range", "bytes */5")]).action
            == .fail(.rangeNotSatisfiable, detail: "range not satisfiable", retryable: false))
        #expect(Self.decide(.bounded(0..<1), 204, []).action == .fail(.invalidResponse, detail: "unexpected status 204", retryable: false))
    }
}
