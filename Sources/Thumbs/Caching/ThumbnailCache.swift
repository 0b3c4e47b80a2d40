/// A memory cache of thumbnails with a count limit and a cost limit (bytes); least recently used out first.
public struct ThumbnailCache<Key: Hashable & Sendable>: Sendable {
    /// Most entries kept.
    public var countLimit: Int
    /// Most total cost (bytes of pixels and encoding) kept.
    public var costLimit: Int
    private var entries: [Key: (value: Thumbnail, cost: Int, stamp: UInt64)] = [:]
    private var clock: UInt64 = 0
    /// The total cost of what is kept.
    public private(set) var totalCost = 0

    /// A cache with these limits.
    public init(countLimit: Int, costLimit: Int) {
        self.countLimit = max(0, countLimit)
        self.costLimit = max(0, costLimit)
    }

    /// What keeping `thumbnail` costs: its pixels plus its encoding.
    public static func cost(of thumbnail: Thumbnail) -> Int {
        thumbnail.image.pixels.count + thumbnail.encoded.count
    }

    /// The number of entries.
    public var count: Int { entries.count }

    /// The thumbnail for `key`, marked recently used.
    public mutating func value(for key: Key) -> Thumbnail? {
        guard let entry = entries[key] else { return nil }
        clock += 1
        entries[key] = (entry.value, entry.cost, clock)
        return entry.value
    }

    /// Whether `key` is cached, without touching its recency.
    public func contains(_ key: Key) -> Bool { entries[key] != nil }

    /// Keeps `thumbnail` for `key`, then evicts least recently used entries until both limits hold.
    /// A thumbnail costlier than the whole limit is not kept.
    public mutating func insert(_ thumbnail: Thumbnail, for key: Key) {
        let cost = Self.cost(of: thumbnail)
        guard cost <= costLimit, countLimit > 0 else { return }
        if let old = entries[key] { totalCost -= old.cost }
        clock += 1
        entries[key] = (thumbnail, cost, clock)
        totalCost += cost
        while entries.count > countLimit || totalCost > costLimit {
            guard let oldest = entries.min(by: { $0.value.stamp < $1.value.stamp }) else { break }
            totalCost -= oldest.value.cost
            entries[oldest.key] = nil
        }
    }

    /// Forgets `key`.
    public mutating func remove(_ key: Key) {
        if let old = entries.removeValue(forKey: key) { totalCost -= old.cost }
    }

    /// Forgets everything.
    public mutating func removeAll() {
        entries.removeAll()
        totalCost = 0
    }
}
