/// Where a box sits in the tree, for error messages: `moov/trak[1]/mdia`.
public struct BoxPath: Sendable, Equatable, CustomStringConvertible {
    /// The path components, outermost first.
    public private(set) var components: [String]

    /// The top level (an empty path).
    public init() {
        components = []
    }

    /// This path with one more box appended; `index` names which of several siblings of the same type.
    public func appending(_ type: FourCC, index: Int? = nil) -> BoxPath {
        var copy = self
        if let index {
            copy.components.append("\(type)[\(index)]")
        } else {
            copy.components.append(type.description)
        }
        return copy
    }

    /// Whether the innermost box sits directly inside a box of type `parent` (`moov/trak[1]/mdia/hdlr` is inside `mdia`).
    public func isDirectlyInside(_ parent: FourCC) -> Bool {
        components.count >= 2 && components[components.count - 2] == parent.description
    }

    /// Nesting depth: the number of components.
    public var depth: Int { components.count }

    public var description: String { components.joined(separator: "/") }
}
