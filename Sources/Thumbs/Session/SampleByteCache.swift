import MP4Box

/// Sample bytes kept for later pictures of the same movie, by where they are in the file (sample numbers change
/// when more of a fragmented movie's fragments are read), within a byte capacity; the oldest
/// go first. What a picture is decoded from is held by its own decode, never only here, so eviction cannot take
/// bytes away from a decode under way.
struct SampleByteCache {
    /// Most bytes kept.
    let capacity: Int
    private var entries: [Range<UInt64>: [UInt8]] = [:]
    /// Byte ranges in insertion order, from `head` on.
    private var order: [Range<UInt64>] = []
    private var head = 0
    /// Bytes kept now.
    private(set) var byteCount = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The bytes of `sample`, if kept.
    func bytes(of sample: Sample) -> [UInt8]? { entries[sample.byteRange] }

    /// Keeps `bytes` of `sample`, dropping the oldest entries to make room; a sample larger than the
    /// capacity is not kept.
    mutating func insert(_ bytes: [UInt8], of sample: Sample) {
        let range = sample.byteRange
        guard entries[range] == nil, bytes.count <= capacity else { return }
        while byteCount + bytes.count > capacity, head < order.count {
            byteCount -= entries.removeValue(forKey: order[head])?.count ?? 0
            head += 1
        }
        if head > 1024 && head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        entries[range] = bytes
        order.append(range)
        byteCount += bytes.count
    }
}
