#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The directory `path=` reads movies from. A path is relative to it and resolved on disk (symbolic links
/// followed, as `realpath` does); only a regular file whose resolved path is inside the resolved root is served, so
/// neither `..`, an absolute path, nor a link that points out of the root reaches another file.
public struct MediaRoot: Sendable {
    /// The root, resolved.
    public let path: String

    /// The directory at `path`.
    /// - Throws: `ServerError` `invalidConfiguration` when it does not exist or is not a directory.
    public init(_ path: String) throws(ServerError) {
        guard let resolved = Self.resolve(path), Self.isDirectory(resolved) else {
            throw ServerError(.invalidConfiguration, "--media-root \(path) is not a directory")
        }
        self.path = resolved
    }

    /// The file that `relative` names.
    /// - Throws: `ServerError` `pathNotAllowed` for an empty, absolute or NUL-holding path or one that leaves the root;
    ///   `notFound` for a path inside the root with no regular file.
    public func file(_ relative: String) throws(ServerError) -> String {
        guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.contains("\0") else {
            throw ServerError(.pathNotAllowed, parameter: "path", "path must be a relative path inside the media root")
        }
        let segments = relative.split(separator: "/")
        guard !segments.contains("..") else {
            throw ServerError(.pathNotAllowed, parameter: "path", "path may not contain '..'")
        }
        let joined = path == "/" ? "/" + relative : path + "/" + relative
        guard let resolved = Self.resolve(joined) else {
            throw ServerError(.notFound, parameter: "path", "no file \(relative) in the media root")
        }
        guard resolved.hasPrefix(path == "/" ? "/" : path + "/") else {
            throw ServerError(.pathNotAllowed, parameter: "path", "path leads out of the media root")
        }
        guard Self.isRegularFile(resolved) else {
            throw ServerError(.notFound, parameter: "path", "\(relative) is not a file in the media root")
        }
        return resolved
    }

    private static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func mode(_ path: String) -> mode_t? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT
    }

    private static func isDirectory(_ path: String) -> Bool { mode(path) == S_IFDIR }
    private static func isRegularFile(_ path: String) -> Bool { mode(path) == S_IFREG }
}
