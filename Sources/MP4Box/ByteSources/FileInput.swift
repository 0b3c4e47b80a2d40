/// A local file, opened with `FileByteSource`.
public struct FileInput: MovieInput {
    /// The path.
    public let path: String

    /// The file at `path`.
    public init(path: String) {
        self.path = path
    }

    public var name: String { path }

    /// A new `FileByteSource` (a file has nothing to learn: `known` is not needed).
    public func open(known: KnownVersion?) throws -> any ByteSource {
        try FileByteSource(path: path)
    }

    /// The device, inode, size and modification time now.
    public func currentVersion() -> String? {
        FileByteSource.version(ofFileAt: path)
    }
}
