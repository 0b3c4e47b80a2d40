import Foundation
import RangeFetch
import ThumbsBatch

/// A batch's outputs as objects under an S3 prefix (`thumbs batch -o s3://bucket/prefix/`): each written by PutObject
/// with its media type, `Cache-Control` and its record as metadata (`x-amz-meta-thumbs-source-version`: the input's
/// ETag or Last-Modified; `-thumbs-options`: the options' key, as a directory's ledger keeps it; `-thumbs-input-identity`: a digest of the
/// input's identity; `-thumbs-input`: its name), so a later batch skips what is current by a HEAD of the thumbnail,
/// without a ledger or a download. A movie's companion folder is uploaded file by file before its thumbnail (objects
/// of an earlier companion that the new one does not have are left); the thumbnail, written last, is the record.
struct ObjectStoreDestination: BatchDestination {
    let store: S3ObjectStore
    let bucket: String
    /// The keys' common start: empty, or ending in `/`.
    let prefix: String

    /// What the thumbnails' caches may keep: a day (a replaced movie's thumbnail changes at the next batch).
    static let cacheControl = "public, max-age=86400"

    /// The prefix `url` names (`s3://bucket/` or `s3://bucket/prefix/`; a last part without `/` is a folder too).
    init?(prefix url: String, store: S3ObjectStore) {
        guard S3Location.isS3(url) else { return nil }
        let rest = url.dropFirst(S3Location.scheme.count)
        let bucket = String(rest.prefix { $0 != "/" })
        guard S3Location("s3://\(bucket)/x") != nil else { return nil }
        var prefix = String(rest.dropFirst(bucket.count + 1))
        if !prefix.isEmpty, !prefix.hasSuffix("/") { prefix += "/" }
        self.store = store
        self.bucket = bucket
        self.prefix = prefix
    }

    /// The folder of the object `url` names (`s3://bucket/a/b.png`: `s3://bucket/a/`), and the object's name in it.
    init?(objectURL url: String, store: S3ObjectStore) {
        guard let object = S3Location(url), let name = Self.objectName(url) else { return nil }
        self.store = store
        bucket = object.bucket
        prefix = String(object.key.dropLast(name.count))
    }

    /// The object's name in the folder `init(objectURL:store:)` made this for: its key after the last `/`; nil for a
    /// key that ends in `/`.
    static func objectName(_ url: String) -> String? {
        guard let key = S3Location(url)?.key, let name = key.split(separator: "/", omittingEmptySubsequences: false).last,
              !name.isEmpty else { return nil }
        return String(name)
    }

    private func location(_ relative: String) -> S3Location {
        S3Location(bucket: bucket, key: prefix + relative)
    }

    func record(of output: String, companionFolder: String?) async throws -> BatchRecord? {
        guard let head = try await store.head(location(output)), let version = head.metadata["thumbs-source-version"],
              let key = head.metadata["thumbs-options"], let identity = head.metadata["thumbs-input-identity"] else { return nil }
        return BatchRecord(input: head.metadata["thumbs-input"] ?? "", identity: identity, version: version, key: key)
    }

    /// Nothing to forget: the record is the thumbnail's own metadata, replaced with it.
    func void(_ output: String) async throws {}

    func writeFolder(_ folder: String, _ fill: (URL) async throws -> Void) async throws {
        try await withLocalFolder { local in
            try await fill(local)
            try await upload(local, to: folder)
        }
    }

    /// Runs `body` with a new, empty local folder, removed after.
    func withLocalFolder<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
        let local = FileManager.default.temporaryDirectory.appendingPathComponent("thumbs-upload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: local) }
        return try await body(local)
    }

    /// Puts every file under `local` at its path relative to it under `folder` (empty: the prefix itself), in path
    /// order, each with the media type its extension says.
    func upload(_ local: URL, to folder: String) async throws {
        let root = local.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(at: local, includingPropertiesForKeys: [.isRegularFileKey]) else { return }
        var files: [URL] = []
        for case let file as URL in walker where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            files.append(file)
        }
        for file in files.sorted(by: { $0.path < $1.path }) {
            let relative = String(file.standardizedFileURL.path.dropFirst(root.count).drop { $0 == "/" })
            try await store.put([UInt8](try Data(contentsOf: file)), at: location(folder.isEmpty ? relative : folder + "/" + relative),
                                contentType: Self.mediaType(ofExtension: file.pathExtension), cacheControl: Self.cacheControl)
        }
    }

    func write(_ bytes: [UInt8], to output: String, contentType: String, record: BatchRecord?) async throws {
        var metadata: [String: String] = [:]
        if let record {
            metadata = ["thumbs-source-version": record.version, "thumbs-options": record.key,
                        "thumbs-input-identity": record.identity, "thumbs-input": record.input]
        }
        try await store.put(bytes, at: location(output), contentType: contentType, cacheControl: Self.cacheControl, metadata: metadata)
    }

    /// The media type of a file a companion writes, by its extension.
    static func mediaType(ofExtension pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "webp": "image/webp"
        case "avif": "image/avif"
        case "vtt": "text/vtt"
        case "json": "application/json"
        case "mpd": "application/dash+xml"
        case "m3u8": "application/vnd.apple.mpegurl"
        default: "application/octet-stream"
        }
    }
}
