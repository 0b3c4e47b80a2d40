/// A memory cache with a count limit and a cost limit (bytes); least recently used out first. Thumbnails
/// (`ThumbnailCache`) and the service's storyboards are kept in one.
public struct CostLimitedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Most entries kept.
    public var countLimit: Int
    /// Most total cost kept.
    public var costLimit: Int
    private var entries: [Key: (value: Value, cost: Int, stamp: UInt64)] = [:]
    private var clock: UInt64 = 0
    /// The total cost of what is kept.
    public private(set) var totalCost = 0

    /// A cache with these limits.
    public init(countLimit: Int, costLimit: Int) {
        self.countLimit = max(0, countLimit)
        self.costLimit = max(0, costLimit)
    }

    /// The number of entries.
    public var count: Int { entries.count }

    /// The value for `key`, marking it recently used.
    public mutating func value(for key: Key) -> Value? {
        guard let entry = entries[key] else { return nil }
        clock += 1
        entries[key] = (entry.value, entry.cost, clock)
        return entry.value
    }

    /// Whether `key` is kept (without marking it used).
    public func contains(_ key: Key) -> Bool { entries[key] != nil }

    /// Keeps `value` at `cost`, dropping the least recently used entries past either limit. A value costing more
    /// than the cost limit is not kept.
    public mutating func insert(_ value: Value, cost: Int, for key: Key) {
        guard cost <= costLimit, countLimit > 0 else { return }
        if let old = entries[key] { totalCost -= old.cost }
        clock += 1
        entries[key] = (value, cost, clock)
        totalCost += cost
        while entries.count > countLimit || totalCost > costLimit {
            // Removed by position, not looked up by key: a key unequal to itself (a NaN) is never found again.
            guard let oldest = entries.indices.min(by: { entries[$0].value.stamp < entries[$1].value.stamp }) else { break }
            totalCost -= entries.remove(at: oldest).value.cost
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

/// A memory cache of thumbnails, their cost the bytes of their pixels and encoding.
public typealias ThumbnailCache<Key: Hashable & Sendable> = CostLimitedCache<Key, Thumbnail>

extension CostLimitedCache where Value == Thumbnail {
    /// What keeping `thumbnail` costs: its pixels plus its encoding.
    public static func cost(of thumbnail: Thumbnail) -> Int {
        thumbnail.image.pixels.count + thumbnail.encoded.count
    }

    /// Keeps `thumbnail` at its cost.
    public mutating func insert(_ thumbnail: Thumbnail, for key: Key) {
        insert(thumbnail, cost: Self.cost(of: thumbnail), for: key)
    }
}
