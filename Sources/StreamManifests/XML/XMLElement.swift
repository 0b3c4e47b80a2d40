/// An element of an XML document as a manifest reader needs it: its local name (the part after any namespace
/// prefix), its attributes by local name, its child elements and the text directly inside it.
struct XMLElement: Sendable, Hashable {
    /// The name without its namespace prefix (`MPD` for `mpd:MPD`).
    var name: String
    /// The attributes by local name (the first of two that share one wins), values with references replaced.
    var attributes: [String: String]
    /// The child elements, in order.
    var children: [XMLElement]
    /// The character data directly inside it (CDATA included), with references replaced.
    var text: String

    /// The children named `name`.
    func children(named name: String) -> [XMLElement] { children.filter { $0.name == name } }

    /// The first child named `name`.
    func child(named name: String) -> XMLElement? { children.first { $0.name == name } }

    /// The value of the attribute `name`.
    subscript(attribute name: String) -> String? { attributes[name] }
}
