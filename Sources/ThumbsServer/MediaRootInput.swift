import ByteSources

/// A file of the media root, named by its path relative to the root: what `path=` reads. What it names (a
/// playlist's segments) is read only from inside the root, by the same rules as `path=` itself (`MediaRoot.file`),
/// and named relative to the root, so no message shows where the root is on disk.
struct MediaRootInput: MovieInput {
    /// The file, resolved, named by its path relative to the root.
    let file: FileInput
    let root: MediaRoot

    /// The file `relative` names in `root`.
    /// - Throws: `ServerError` as `MediaRoot.file(_:)` throws it.
    init(_ relative: String, in root: MediaRoot) throws(ServerError) {
        file = FileInput(path: try root.file(relative), name: relative)
        self.root = root
    }

    var name: String { file.name }
    var identity: String { file.identity }
    var referenceBase: String? { file.referenceBase }

    func open(known: KnownVersion?) throws -> any ByteSource {
        try file.open(known: known)
    }

    func currentVersion() async -> String? {
        await file.currentVersion()
    }

    /// The file at `reference` (a path resolved against this file's, so inside the root when it stays there).
    /// - Throws: `ServerError` `pathNotAllowed` for a reference outside the root (or a URL), `notFound` for no file.
    func input(at reference: String) throws -> any MovieInput {
        let prefix = root.path == "/" ? "/" : root.path + "/"
        guard reference.hasPrefix(prefix) else {
            throw ServerError(.pathNotAllowed, parameter: "path", "\(name) names a file outside the media root")
        }
        return try MediaRootInput(String(reference.dropFirst(prefix.count)), in: root)
    }
}
