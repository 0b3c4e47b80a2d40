/// The one binary search of the package, over positions rather than a collection, since tables stay raw bytes.
public enum BinarySearch {
    /// How many of the positions `0..<count` satisfy `holds`, for a predicate that holds on a prefix of them
    /// (true, ..., true, false, ..., false): the first position where it fails. O(log count) calls of `holds`.
    @inlinable
    public static func prefixCount(_ count: Int, where holds: (Int) throws -> Bool) rethrows -> Int {
        var low = 0
        var high = max(0, count)
        while low < high {
            let middle = low + (high - low) / 2
            if try holds(middle) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
