/// Sample bytes kept for later pictures of the same movie, by sample index, within a byte capacity; the oldest
/// go first. What a picture is decoded from is held by its own decode, never only here, so eviction cannot take
/// bytes away from a decode under way.
struct SampleByteCache {
    /// Most bytes kept.
    let capacity: Int
    private var entries: [Int: [UInt8]] = [:]
    /// Sample indices in insertion order, from `head` on.
    private var order: [Int] = []
    private var head = 0
    /// Bytes kept now.
    private(set) var byteCount = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The bytes of sample `index`, if kept.
    func bytes(of index: Int) -> [UInt8]? { entries[index] }

    /// Keeps `bytes` for sample `index`, dropping the oldest entries to make room; a sample larger than the
    /// capacity is not kept.
    mutating func insert(_ bytes: [UInt8], for index: Int) {
        guard entries[index] == nil, bytes.count <= capacity else { return }
        while byteCount + bytes.count > capacity, head < order.count {
            byteCount -= entries.removeValue(forKey: order[head])?.count ?? 0
            head += 1
        }
        if head > 1024 && head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        entries[index] = bytes
        order.append(index)
        byteCount += bytes.count
    }
}
