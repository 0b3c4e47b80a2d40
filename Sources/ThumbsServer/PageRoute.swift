import Foundation
import HTTPTypes
import Hummingbird

/// `GET /`: the `VideoPage` of the configured page URLs and the movies in the media root (`.mp4`, `.m4v`, `.mov`,
/// at most `maximumEntries`, by name, from at most 100 times that many entries walked), every link signed when the
/// server signs.
struct PageRoute: Sendable {
    let pageURLs: [String]
    let mediaRoot: MediaRoot?
    let signature: RequestSignature?
    /// Videos listed at most.
    static let maximumEntries = 1_000

    func respond() -> Response {
        var entries = pageURLs.map { VideoPage.Entry(name: $0, source: "url=" + Self.encoded($0)) }
        if let mediaRoot {
            entries += Self.movies(in: mediaRoot).map { VideoPage.Entry(name: $0, source: "path=" + Self.encoded($0)) }
        }
        let html = VideoPage.html(Array(entries.prefix(Self.maximumEntries))) { path, query in
            signature?.signedPathAndQuery(path: path, query: query) ?? path + "?" + query
        }
        return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// The movies under `root`, as paths relative to it, sorted; hidden files and folders skipped.
    static func movies(in root: MediaRoot) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var found: [String] = []
        var visited = 0
        while let relative = walker.nextObject() as? String, found.count < 10 * maximumEntries, visited < 100 * maximumEntries {
            visited += 1
            let name = relative.split(separator: "/").last.map(String.init) ?? relative
            if name.hasPrefix(".") {
                walker.skipDescendants()
                continue
            }
            let lower = name.lowercased()
            guard lower.hasSuffix(".mp4") || lower.hasSuffix(".m4v") || lower.hasSuffix(".mov") else { continue }
            guard (try? root.file(relative)) != nil else { continue }  // regular files inside the root only
            found.append(relative)
        }
        return Array(found.sorted().prefix(maximumEntries))
    }

    /// `text` percent-encoded for a query value: everything but ASCII letters, digits and `-._~` (so the URL the
    /// page signs is the URL a browser sends, whatever the file's name).
    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
