/// An element of an XML document as a reader of manifests and listings needs it: its local name (the part after any
/// namespace prefix), its attributes by local name, its child elements and the text directly inside it.
public struct XMLElement: Sendable, Hashable {
    /// The name without its namespace prefix (`MPD` for `mpd:MPD`).
    public var name: String
    /// The attributes by local name (the first of two that share one wins), values with references replaced.
    public var attributes: [String: String]
    /// The child elements, in order.
    public var children: [XMLElement]
    /// The character data directly inside it (CDATA included), with references replaced.
    public var text: String

    /// The children named `name`.
    public func children(named name: String) -> [XMLElement] { children.filter { $0.name == name } }

    /// The first child named `name`.
    public func child(named name: String) -> XMLElement? { children.first { $0.name == name } }

    /// The value of the attribute `name`.
    public subscript(attribute name: String) -> String? { attributes[name] }
}
