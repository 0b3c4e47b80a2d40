/// Where a movie's bytes come from, as a value: a file's path, a URL with the headers it is fetched with, or your
/// own. It opens a new `ByteSource` each time one is needed, and names what makes two inputs the same, so caches
/// can share work between equal inputs and never between different ones.
public protocol MovieInput: Sendable {
    /// The path or URL, for messages.
    var name: String { get }

    /// What identifies the bytes this input reads: the name, and whatever else changes them (an HTTP request's
    /// credentials, cookies and other headers). Inputs with equal identities share cached indexes and pictures.
    var identity: String { get }

    /// A new source for the bytes. `known`, from an earlier source of the same input, lets the new one skip
    /// learning its length and validator again and refuse bytes of another version.
    /// - Throws: whatever opening the source throws (`ReadError` for a file that cannot be opened).
    func open(known: KnownVersion?) throws -> any ByteSource

    /// The version of the bytes now, where it can be known without a read (a local file's, from one `stat`), else
    /// nil. A cached picture of a version other than the current one is not used.
    func currentVersion() async -> String?

    /// The path or URL that references in the input's text resolve against (a playlist's segments), nil when it
    /// names nothing else.
    var referenceBase: String? { get }

    /// The input at `reference` (a path or URL resolved against `referenceBase`, as a playlist names its segments),
    /// read the way this one is: the same headers and policies, credentials only for the same origin.
    /// - Throws: `ReadError` `cannotOpen` when this input names nothing else, or the reference is not one it can
    ///   read (the input's own error where it has one, as a URL outside allowed origins).
    func input(at reference: String) throws -> any MovieInput
}

extension MovieInput {
    /// The name alone.
    public var identity: String { name }

    /// Inputs that cannot tell their version without a read.
    public func currentVersion() async -> String? { nil }

    /// Inputs that name nothing else.
    public var referenceBase: String? { nil }

    /// Inputs that name nothing else.
    public func input(at reference: String) throws -> any MovieInput {
        throw ReadError(.cannotOpen, input: name, "cannot read '\(reference)' that it names: the input names no other")
    }
}

/// What a source learnt about the version it read (`ByteSource.knownLength` and `version`), kept with an index so
/// a later source of the same input starts from it.
public struct KnownVersion: Sendable, Hashable {
    /// The length in bytes.
    public var length: UInt64?
    /// The source's `version`.
    public var version: String?

    /// Makes a record.
    public init(length: UInt64?, version: String?) {
        self.length = length
        self.version = version
    }

    /// What `source` knows now.
    public init(of source: any ByteSource) async {
        self.init(length: await source.knownLength, version: await source.version)
    }
}
