import Storyboards
import Thumbs

/// A storyboard made for the service: what it describes, the bytes of its sheets in order (sheet n is
/// `/storyboard/n.jpg`), and the validator of the movie's bytes it was made from.
struct ServedStoryboard: Sendable {
    var storyboard: Storyboard
    var sheets: [[UInt8]]
    var validator: String?

    /// What keeping it costs: its sheets' bytes, and a little for each cue.
    var cost: Int { sheets.reduce(0) { $0 + $1.count } + 64 * storyboard.cues.count }
}

/// The service's storyboards: made once per input and options while any request waits for them (concurrent requests
/// share the making), then kept under count and byte limits, so the track and each of its sheets are one making.
actor StoryboardStore {
    /// An input, the version of a local file's bytes (so a file replaced in place is made again, as its thumbnails
    /// are), and the options that shape its storyboard.
    struct Key: Hashable, Sendable {
        var identity: String
        var version: String?
        var options: String
    }

    private var cache: CostLimitedCache<Key, ServedStoryboard>
    private let flights = WorkCoalescer<Key, ServedStoryboard>()

    init(countLimit: Int, costLimit: Int) {
        cache = CostLimitedCache(countLimit: countLimit, costLimit: costLimit)
    }

    /// The storyboard for `key` if it is kept.
    func cached(_ key: Key) -> ServedStoryboard? { cache.value(for: key) }

    /// The storyboard for `key`: kept, being made, or made now by `make`.
    func storyboard(_ key: Key, make: @escaping @Sendable () async throws -> ServedStoryboard) async throws -> ServedStoryboard {
        if let kept = cache.value(for: key) { return kept }
        return try await flights.value(for: key) {
            let made = try await make()
            await self.keep(made, for: key)
            return made
        }
    }

    private func keep(_ storyboard: ServedStoryboard, for key: Key) {
        cache.insert(storyboard, cost: storyboard.cost, for: key)
    }
}
