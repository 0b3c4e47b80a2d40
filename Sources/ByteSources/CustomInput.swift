/// Any source, made by a closure, identified by a key that must change when the bytes do.
public struct CustomInput: MovieInput {
    /// The key.
    public let name: String
    private let make: @Sendable () throws -> any ByteSource

    /// An input named `key` whose sources `make` opens.
    public init(key: String, _ make: @escaping @Sendable () throws -> any ByteSource) {
        name = key
        self.make = make
    }

    public func open(known: KnownVersion?) throws -> any ByteSource {
        try make()
    }
}
