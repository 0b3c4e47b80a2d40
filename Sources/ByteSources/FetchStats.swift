/// What reading a source cost: requests, bytes, round trips, connections and time.
///
/// `HTTPByteSource` fills every field from the wire; `CountingByteSource` fills requests, bytes, round trips, wall
/// time and the log for any other source (status 0).
public struct FetchStats: Sendable, Equatable, Codable {
    /// One request.
    public struct Request: Sendable, Equatable, Codable {
        /// The first byte asked for.
        public var start: UInt64
        /// One past the last byte asked for (nil for a suffix range).
        public var end: UInt64?
        /// For a suffix range, how many bytes from the end (with `end` as well: the head and the suffix asked for together).
        public var suffixLength: UInt64?
        /// The HTTP status (0 when no response came, and for sources that are not HTTP).
        public var status: Int
        /// Body bytes received.
        public var bytes: UInt64
        /// The time from sending to the last byte read.
        public var elapsed: Duration
        /// The time from sending to the response head.
        public var timeToFirstByte: Duration
        /// Which attempt this was (1 for the first).
        public var attempt: Int

        /// Makes a record.
        public init(start: UInt64, end: UInt64?, suffixLength: UInt64?, status: Int, bytes: UInt64, elapsed: Duration = .zero,
                    timeToFirstByte: Duration = .zero, attempt: Int) {
            self.start = start
            self.end = end
            self.suffixLength = suffixLength
            self.status = status
            self.bytes = bytes
            self.elapsed = elapsed
            self.timeToFirstByte = timeToFirstByte
            self.attempt = attempt
        }
    }

    /// Requests sent, retries included.
    public var requests: Int = 0
    /// Body bytes received.
    public var bytes: UInt64 = 0
    /// Sequential round trips: requests sent while no other was in flight start a new round trip.
    public var roundTrips: Int = 0
    /// Connections the client opened while this source read (by the client's connection pool; other sources on
    /// the same client count too); nil when the pool did not report them.
    public var connectionsOpened: Int? = 0
    /// Responses that ignored Range and sent the whole body (read only as far as needed).
    public var ignoredRangeResponses: Int = 0
    /// Retries after resets or 502/503/504.
    public var retries: Int = 0
    /// The time from the first request to the end of the last.
    public var wallTime: Duration = .zero
    /// The time from the first request to its response head.
    public var timeToFirstByte: Duration?
    /// Every request, in the order they started.
    public var log: [Request] = []

    /// No requests yet.
    public init() {}
}
