import ByteSources
import Foundation
import MP4BoxTestSupport
import RangeFetch
import RangeFetchTestSupport
import Testing
import Thumbs

/// The checks a file format's origin tests share: its picture read from nginx, and from an S3-compatible store, is
/// the one read from the file on disk.
enum OriginPictures {
    /// The picture `picture` makes of `fixture` (a path under Fixtures) served by nginx equals the one of the file, and
    /// nginx answered every request for it with 206.
    static func fromNginx(_ fixture: String, picture: (any MovieInput) async throws -> Thumbnail) async throws {
        let nginx = try #require(RoundTripTests.nginx, "nginx is installed but did not start")
        let target = "/\(fixture)?case=\(UUID().uuidString)"
        let remote = try await picture(try HTTPInput(url: nginx.url(String(target.dropFirst()))))
        let local = try await picture(FileInput(path: Fixtures.directory.appendingPathComponent(fixture).path))
        #expect(remote.encoded == local.encoded && remote.actualTime == local.actualTime)
        _ = try await nginx.sent(path: target, awaiting: 1)
        let log = nginx.accessLog.filter { $0.contains("\"GET \(target) ") }
        #expect(!log.isEmpty && log.allSatisfy { $0.contains("\" 206 ") }, "\(log)")
    }

    /// The picture `picture` makes of the store's object `key` (every request signed) equals the one of `fixture`.
    static func fromTheStore(key: String, fixture: String, picture: (any MovieInput) async throws -> Thumbnail) async throws {
        let store = try #require(try await MotoServer.guarded.value)
        let configuration = S3Configuration(endpoint: store.endpoint,
                                            credentials: AWSCredentials(accessKeyID: store.accessKeyID, secretAccessKey: store.secretAccessKey))
        try await RoundTripTests.withFreshClient { client in
            let input = try S3Input(url: "s3://\(store.bucket)/\(key)", configuration: configuration, client: client)
            let remote = try await picture(input)
            let local = try await picture(FileInput(path: Fixtures.directory.appendingPathComponent(fixture).path))
            #expect(remote.encoded == local.encoded && remote.actualTime == local.actualTime)
        }
    }
}
