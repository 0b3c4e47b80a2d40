/// A box whose payload is only child boxes: moov, trak, mdia, minf, stbl, edts, dinf, udta, mvex, moof, traf, mfra, ilst items.
public struct ContainerBox: Box {
    public let header: BoxHeader
    /// The children, in file order.
    public let children: [any Box]

    /// The first child of type `T`.
    public func first<T: Box>(_ type: T.Type) -> T? {
        for child in children {
            if let match = child as? T { return match }
        }
        return nil
    }

    /// Every child of type `T`, in file order.
    public func all<T: Box>(_ type: T.Type) -> [T] {
        children.compactMap { $0 as? T }
    }

    /// The first child container with the given type.
    public func container(_ type: FourCC) -> ContainerBox? {
        for child in children {
            if let box = child as? ContainerBox, box.header.type == type { return box }
        }
        return nil
    }

    /// Every child container with the given type.
    public func containers(_ type: FourCC) -> [ContainerBox] {
        children.compactMap { child in
            guard let box = child as? ContainerBox, box.header.type == type else { return nil }
            return box
        }
    }
}
