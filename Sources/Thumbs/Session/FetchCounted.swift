import ByteSources

/// A result that says what making it cost the source: the bytes and requests a `FetchMeter` counted for its call.
package protocol FetchCounted {
    /// Body bytes fetched.
    var bytesFetched: UInt64 { get set }
    /// Requests sent.
    var requests: Int { get set }
}

extension FetchCounted {
    /// Takes `bytesFetched` and `requests` from what a meter counted.
    package mutating func count(_ fetched: FetchStats) {
        bytesFetched = fetched.bytes
        requests = fetched.requests
    }
}

// Within the package only: the public declarations list what clients can rely on.
extension Thumbnail: FetchCounted {}
extension AnimatedPreview: FetchCounted {}
