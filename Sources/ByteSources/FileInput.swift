/// A local file, opened with `FileByteSource`.
public struct FileInput: MovieInput {
    /// The path.
    public let path: String
    /// What messages call the file: the path unless given (a server names a file by the path its client asked for,
    /// so no message shows where its files are on disk).
    public let name: String

    /// The file at `path`, called `name` in messages (default: the path).
    public init(path: String, name: String? = nil) {
        self.path = path
        self.name = name ?? path
    }

    /// The path: two names of one file share its pictures, two files of one name do not.
    public var identity: String { path }

    /// A new `FileByteSource` (a file has nothing to learn: `known` is not needed).
    public func open(known: KnownVersion?) throws -> any ByteSource {
        try FileByteSource(path: path, name: name)
    }

    /// The path: a playlist's relative references are resolved against it.
    public var referenceBase: String? { path }

    /// The file at `reference`, a path (a playlist on disk names files on disk; a URL is refused). A file named
    /// by a path relative to the input's name is named the same way.
    /// - Throws: `ReadError` `cannotOpen` for a reference with a URL scheme.
    public func input(at reference: String) throws -> any MovieInput {
        if let colon = reference.firstIndex(of: ":"), reference[..<colon].allSatisfy({ $0.isLetter }), colon != reference.startIndex,
           reference[colon...].hasPrefix("://") {
            throw ReadError(.cannotOpen, input: name, "a file on disk names '\(reference)': only files can be read from it")
        }
        return FileInput(path: reference)
    }

    /// The device, inode, size and modification time now (one `stat`, off the tasks' threads).
    public func currentVersion() async -> String? {
        let path = path
        return await BlockingCalls.run { FileByteSource.version(ofFileAt: path) }
    }
}
