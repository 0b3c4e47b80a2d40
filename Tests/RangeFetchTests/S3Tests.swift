import AsyncHTTPClient
import ByteSources
import Foundation
import MP4Box
import MP4BoxTestSupport
@testable import RangeFetch
import RangeFetchTestSupport
import Testing
import Thumbs

/// Objects in S3-compatible stores: `s3://` names, AWS Signature Version 4 against the AWS documentation's example and
/// a real S3-compatible server (moto, which checks every signature), presigned URLs whose query goes on the wire byte
/// for byte, and keys holding a space and a `+`.
@Suite(.timeLimit(.minutes(2))) struct S3Tests {
    // MARK: Signature Version 4

    /// The example "GET Object" of the Amazon S3 API reference ("Signature Calculations for the Authorization Header:
    /// Transferring Payload in a Single Chunk"): its key, date, Range and the empty payload's hash give the signature
    /// the documentation prints (botocore's S3SigV4Auth gives the same).
    @Test func theDocumentationsExampleIsSignedAsPrinted() throws {
        let signer = AWSSignatureV4(
            credentials: AWSCredentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
            region: "us-east-1",
            payloadHash: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        var request = HTTPClientRequest(url: "https://examplebucket.s3.amazonaws.com/test.txt")
        request.headers.add(name: "Range", value: "bytes=0-9")
        try signer.sign(&request, at: Date(timeIntervalSince1970: 1_369_353_600))    // 2013-05-24T00:00:00Z
        #expect(request.headers.first(name: "Authorization") == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
            + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(request.headers.first(name: "x-amz-date") == "20130524T000000Z")
        #expect(request.headers.first(name: "Host") == "examplebucket.s3.amazonaws.com")
    }

    @Test func aSessionTokenIsSentAndSignedAndAPortIsPartOfTheHost() throws {
        let signer = AWSSignatureV4(credentials: AWSCredentials(accessKeyID: "id", secretAccessKey: "secret", sessionToken: "token"),
                                    region: "eu-west-1")
        var request = HTTPClientRequest(url: "http://127.0.0.1:9000/bucket/a%20b%2Bc.mp4")
        try signer.sign(&request, at: Date(timeIntervalSince1970: 0))
        #expect(request.headers.first(name: "x-amz-security-token") == "token")
        #expect(request.headers.first(name: "Host") == "127.0.0.1:9000")
        let authorization = try #require(request.headers.first(name: "Authorization"))
        #expect(authorization.contains("Credential=id/19700101/eu-west-1/s3/aws4_request"))
        #expect(authorization.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,"))
        #expect(!authorization.contains("secret"))
    }

    @Test func theCanonicalRequestKeepsThePathAndSortsTheQueryAsWritten() {
        let canonical = AWSSignatureV4.canonicalRequest(
            method: "GET", path: "/bucket/a%20b%2Bc.mp4", query: "z=1&a=%20+&a=%2F",
            headers: AWSSignatureV4.canonicalHeaders([("Host", "h"), ("X-Amz-Date", "  20130524T000000Z "), ("Accept", "x")]),
            payloadHash: "UNSIGNED-PAYLOAD")
        #expect(canonical == "GET\n/bucket/a%20b%2Bc.mp4\na=%20+&a=%2F&z=1\nhost:h\nx-amz-date:20130524T000000Z\n\nhost;x-amz-date\nUNSIGNED-PAYLOAD")
    }

    @Test func credentialsNeverPrintTheirSecret() {
        let credentials = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "very-secret", sessionToken: "token-secret")
        #expect("\(credentials)" == "AWSCredentials(AKIDEXAMPLE)")
    }

    // MARK: s3:// names and where they are read

    @Test func anS3URLNamesABucketAndAKeyAsWritten() throws {
        let location = try #require(S3Location("s3://media/videos/a b+c.mp4"))
        #expect(location.bucket == "media")
        #expect(location.key == "videos/a b+c.mp4")
        #expect(location.encodedKey == "videos/a%20b%2Bc.mp4")
        #expect(location.description == "s3://media/videos/a b+c.mp4")
        for bad in ["s3://media", "s3://media/", "s3:///key", "s3://Media/key", "s3://me dia/key", "https://media/key"] {
            #expect(S3Location(bad) == nil, "\(bad)")
        }
        #expect(S3Location("S3://media/k") == S3Location(bucket: "media", key: "k"))
    }

    @Test func theEnvironmentGivesTheRegionTheEndpointAndTheCredentials() throws {
        let location = S3Location(bucket: "media", key: "a b.mp4")
        let aws = S3Configuration(environment: ["AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": "s"])
        #expect(try aws.url(of: location) == "https://media.s3.eu-west-1.amazonaws.com/a%20b.mp4")
        #expect(try aws.url(of: S3Location(bucket: "my.media", key: "k")) == "https://s3.eu-west-1.amazonaws.com/my.media/k")
        #expect(aws.credentials == AWSCredentials(accessKeyID: "id", secretAccessKey: "s"))
        let store = S3Configuration(environment: ["AWS_DEFAULT_REGION": "auto", "AWS_ENDPOINT_URL": "http://127.0.0.1:9000/"])
        #expect(store.region == "auto")
        #expect(try store.url(of: location) == "http://127.0.0.1:9000/media/a%20b.mp4")
        #expect(store.credentials == nil)
        #expect(S3Configuration(environment: [:]).region == "us-east-1")
        let bad = S3Configuration(endpoint: "ftp://store")
        #expect(throws: FetchError.self) { _ = try bad.url(of: location) }
    }

    @Test func anS3InputsIdentityHoldsNoCredential() throws {
        let configuration = S3Configuration(endpoint: "http://127.0.0.1:9000",
                                            credentials: AWSCredentials(accessKeyID: "AKIDSECRET", secretAccessKey: "very-secret"))
        let input = try S3Input(url: "s3://media/a.mp4", configuration: configuration)
        #expect(input.name == "s3://media/a.mp4")
        #expect(input.identity == "s3://media/a.mp4\nhttp://127.0.0.1:9000/media/a.mp4")
        #expect(throws: FetchError.self) { _ = try S3Input(url: "https://media/a.mp4") }
    }

    // MARK: on the wire

    @Test func aPresignedURLsQueryGoesOnTheWireByteForByte() async throws {
        let target = "/f.bin?X-Amz-Signature=ab%2Bcd%2F&z=1&a=%20+%2F&X-Amz-Credential=AKID%2F20261126%2Fus-east-1%2Fs3%2Faws4_request&b=%7E"
        try await TestHTTPServer.serving(["/f.bin": OriginKindTests.file]) { server in
            let source = try HTTPByteSource(url: server.url(target), options: HTTPByteSourceTests.fastOptions())
            _ = try await source.read(0..<100)
            #expect(server.requests.map(\.uri) == [target])
        }
    }

    // MARK: moto, an S3-compatible server

    static let movie = (try? Fixtures.bytes("h264-bframes")) ?? []
    static let keys = ["movie.mp4", "a b+c.mp4"]

    @Test(.enabled(if: MotoServer.isInstalled, "moto is installed by scripts/install-deps.sh into .build/moto-venv"))
    func motoStarts() async throws {
        let open = try await MotoServer.open.value
        let guarded = try await MotoServer.guarded.value
        #expect(open != nil && guarded != nil, "moto is installed but did not start")
    }

    @Test(.enabled(if: MotoServer.isInstalled, "moto is installed by scripts/install-deps.sh"), arguments: keys)
    func aPresignedURLIsReadUntouched(_ key: String) async throws {
        let store = try #require(try await MotoServer.open.value)
        let url = try #require(store.presigned[key])
        #expect(url.contains("X-Amz-Signature="))
        let source = try HTTPByteSource(url: url, options: HTTPByteSourceTests.fastOptions())
        let ends = try await source.readEnds(head: 1024, tail: 1024)
        #expect(ends.head == Array(Self.movie.prefix(1024)))
        #expect(ends.tail == Array(Self.movie.suffix(1024)))
        #expect(try await source.read(40_000..<40_100) == Array(Self.movie[40_000..<40_100]))
    }

    @Test func aPresignedURLsCredentialNeverShowsInAnError() {
        let url = "https://media.s3.amazonaws.com/a.mp4?X-Amz-Credential=AKIDEXAMPLE%2F20261126&X-Amz-Security-Token=secret-token&X-Amz-Signature=abc"
        let error = FetchError(.forbidden, url: url, range: 0..<100, status: 403, "access denied (403)")
        #expect(error.description == "https://media.s3.amazonaws.com/a.mp4?…, bytes 0-99: access denied (403)")
        #expect(error.url == url)    // the field keeps it, for the caller's own use
    }

    @Test(.enabled(if: MotoServer.isInstalled, "moto is installed by scripts/install-deps.sh"), arguments: keys)
    func anS3URLIsSignedAndRead(_ key: String) async throws {
        let store = try #require(try await MotoServer.guarded.value)
        let configuration = S3Configuration(endpoint: store.endpoint,
                                            credentials: AWSCredentials(accessKeyID: store.accessKeyID, secretAccessKey: store.secretAccessKey))
        let input = try S3Input(url: "s3://\(store.bucket)/\(key)", configuration: configuration, options: HTTPByteSourceTests.fastOptions())
        let source = try input.open(known: nil)
        let located = try await MovieLocator().locate(in: source)
        let local = try await MovieLocator().locate(in: MemoryByteSource(Self.movie))
        #expect(located.movie.tracks.map(\.samples.count) == local.movie.tracks.map(\.samples.count))
        #expect(try await source.read(40_000..<40_100) == Array(Self.movie[40_000..<40_100]))
    }

    @Test(.enabled(if: MotoServer.isInstalled, "moto is installed by scripts/install-deps.sh"))
    func aWrongSecretIsForbiddenAndNeverShown() async throws {
        let store = try #require(try await MotoServer.guarded.value)
        let configuration = S3Configuration(endpoint: store.endpoint,
                                            credentials: AWSCredentials(accessKeyID: store.accessKeyID, secretAccessKey: "not-the-secret"))
        let source = try S3Input(url: "s3://\(store.bucket)/movie.mp4", configuration: configuration,
                                 options: HTTPByteSourceTests.fastOptions()).open(known: nil)
        let error = try await #require(throws: FetchError.self) { _ = try await source.read(0..<100) }
        #expect(error.code == .forbidden)
        #expect(!error.description.contains("not-the-secret"))
        // Unsigned, the guarded store refuses too.
        let anonymous = try S3Input(url: "s3://\(store.bucket)/movie.mp4", configuration: S3Configuration(endpoint: store.endpoint),
                                    options: HTTPByteSourceTests.fastOptions()).open(known: nil)
        await #expect(throws: FetchError.self) { _ = try await anonymous.read(0..<100) }
    }
}
