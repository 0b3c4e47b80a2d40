import MP4Box

extension MatroskaLocator {
    /// Locates the index again from bytes read before (a kept index's `Result.heldBytes`), without I/O: each request
    /// is answered from `held`, the tail as the last `tailSize` bytes of a file of `length` bytes (none when the
    /// length is not known).
    /// - Throws: `MatroskaError`: the errors of locating, and `malformed` when `held` lacks bytes the index needs.
    public func locate(in held: HeldBytes, length: UInt64?) throws(MatroskaError) -> Result {
        let locator = MatroskaLocator(headSize: headSize, tailSize: tailSize, elementGuess: elementGuess, limits: limits,
                                      knownLength: length)
        return try locator.run { request in
            switch request {
            case .ends(let head, let tail):
                let headBytes = held.prefix(of: 0 ..< head)
                guard let length, length > UInt64(headBytes.count) else {
                    return (.ends(head: headBytes, tail: [], tailOffset: UInt64(headBytes.count), length: length), length)
                }
                let tailOffset = max(UInt64(headBytes.count), length > tail ? length - tail : 0)
                return (.ends(head: headBytes, tail: held.prefix(of: tailOffset ..< length), tailOffset: tailOffset, length: length),
                        length)
            case .range(let range):
                return (.bytes([held.prefix(of: range)]), length)
            case .ranges(let ranges):
                return (.bytes(ranges.map { held.prefix(of: $0) }), length)
            }
        }
    }
}
