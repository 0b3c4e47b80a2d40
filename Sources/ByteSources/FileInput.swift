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

    /// The device, inode, size and modification time now (one `stat`, off the tasks' threads).
    public func currentVersion() async -> String? {
        let path = path
        return await BlockingCalls.run { FileByteSource.version(ofFileAt: path) }
    }
}
