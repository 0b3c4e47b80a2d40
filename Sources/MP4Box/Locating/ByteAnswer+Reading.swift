extension ByteAnswer {
    /// The answer a source gives to `request` when it reads with `read` (which clamps each range to the end of the
    /// file, so it gives fewer bytes only there) and knows the file's length is `length` (nil when it does not know
    /// it, as a server without Content-Length). The ends come back as one head when the file is no longer than head
    /// and tail together, and as the head alone when the length is not known. How to drive an `IndexReader` from
    /// bytes in memory:
    ///
    /// ```swift
    /// let answer = ByteAnswer.answering(request, length: UInt64(file.count)) { range in
    ///     Array(file[Int(min(range.lowerBound, UInt64(file.count)))..<Int(min(range.upperBound, UInt64(file.count)))])
    /// }
    /// ```
    public static func answering(_ request: ByteRequest, length: UInt64?, read: (Range<UInt64>) -> [UInt8]) -> ByteAnswer {
        switch request {
        case .ends(let head, let tail):
            guard let length else {
                let first = read(0..<head)
                let whole = UInt64(first.count) < head
                return .ends(head: first, tail: [], tailOffset: UInt64(first.count), length: whole ? UInt64(first.count) : nil)
            }
            if length <= head.saturatingAdd(tail) {
                return .ends(head: read(0..<length), tail: [], tailOffset: length, length: length)
            }
            let first = read(0..<head)
            guard tail > 0 else { return .ends(head: first, tail: [], tailOffset: head, length: length) }
            return .ends(head: first, tail: read((length - tail)..<length), tailOffset: length - tail, length: length)
        case .range(let range):
            return .bytes([read(range)])
        case .ranges(let ranges):
            return .bytes(ranges.map(read))
        }
    }
}
