/// An EBML element whose data is all in memory: its header and its data, whose children can be walked.
public struct EBMLElement: Sendable {
    /// The header.
    public var header: EBMLElementHeader
    /// The data (all of it: a master element read whole, or a value).
    public var data: ArraySlice<UInt8>
    /// The element path, for messages (`Segment/Tracks`).
    public var path: String

    /// The element ID.
    public var id: UInt32 { header.id }

    /// The children of a master element, in order. A child of unknown size is not allowed here (only Segment and
    /// Cluster may have one, and neither is read whole).
    /// - Throws: `MatroskaError` `malformed` for a child that does not fit in this element or has an unknown size.
    public func children() throws(MatroskaError) -> [EBMLElement] {
        var children: [EBMLElement] = []
        var position = data.startIndex
        while position < data.endIndex {
            let offset = header.dataOffset + UInt64(position - data.startIndex)
            guard let child = try EBMLElementHeader.read(data[position...], at: offset, path: path) else {
                throw MatroskaError(.malformed, path: path, offset: offset, "an element header runs past the end of its parent")
            }
            let name = path + "/" + MatroskaID.name(child.id)
            guard let size = child.dataSize else {
                throw MatroskaError(.malformed, path: name, offset: offset, "an element of unknown size inside a master element read whole")
            }
            let start = position + child.headerLength
            guard size <= UInt64(data.endIndex - start) else {
                throw MatroskaError(.malformed, path: name, offset: offset,
                                    "the element claims \(size) bytes, its parent holds \(data.endIndex - start) after its header")
            }
            let end = start + Int(size)
            children.append(EBMLElement(header: child, data: data[start ..< end], path: name))
            position = end
        }
        return children
    }

    /// The value as an unsigned integer.
    public func unsigned() throws(MatroskaError) -> UInt64 { try EBMLValue.unsigned(data, path: path, offset: header.offset) }
    /// The value as a float.
    public func float() throws(MatroskaError) -> Double { try EBMLValue.float(data, path: path, offset: header.offset) }
    /// The value as a string.
    public var string: String { EBMLValue.string(data) }
    /// The value's bytes.
    public var bytes: [UInt8] { Array(data) }

    /// A problem with this element.
    func error(_ code: MatroskaError.Code, _ detail: String) -> MatroskaError {
        MatroskaError(code, path: path, offset: header.offset, detail)
    }

    /// This element contradicts the specifications.
    func error(_ detail: String) -> MatroskaError {
        error(.malformed, detail)
    }
}
