/// When in a movie a thumbnail is taken.
public enum ThumbnailTime: Sendable, Hashable {
    /// Seconds on the movie timeline.
    case seconds(Double)
    /// An exact time: `value / timescale` seconds.
    case rational(value: Int64, timescale: Int32)
    /// A fraction of the duration, 0...1.
    case fraction(Double)
    /// The Nth frame in presentation order (0-based); always decoded exactly.
    case frame(Int)


    /// The time in seconds, when it is one without the movie (a number of seconds or a rational time).
    public var seconds: Double? {
        switch self {
        case .seconds(let seconds): seconds
        case .rational(let value, let timescale): timescale > 0 ? Double(value) / Double(timescale) : nil
        case .fraction, .frame: nil
        }
    }
}
