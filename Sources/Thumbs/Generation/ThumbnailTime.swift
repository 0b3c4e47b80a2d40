import ByteSources

/// When in a movie a thumbnail is taken.
public enum ThumbnailTime: Sendable, Hashable, CustomStringConvertible {
    /// Seconds on the movie timeline.
    case seconds(Double)
    /// An exact time: `value / timescale` seconds.
    case rational(value: Int64, timescale: Int32)
    /// A fraction of the duration, 0...1.
    case fraction(Double)
    /// The Nth frame in presentation order (0-based); always decoded exactly.
    case frame(Int)
    /// The newest picture: of a live HLS or DASH stream, the last keyframe of its newest segment
    /// (`ThumbnailGenerator`, of a stream); of a movie or a stream that has ended, the end (its last keyframe
    /// with the default tolerance).
    case latest
    /// The keyframe that makes the best poster among `ThumbnailOptions.bestFrameCandidateCount` spread over the
    /// movie without its first and last 5 %, by `FrameScore` (near-black, flat, blurred and fading pictures lose):
    /// only those keyframes are fetched and decoded. Of a stream, the keyframes that start the segments playing at
    /// those times (`ThumbnailGenerator.image(at:)`). `Thumbnail.candidates` lists each one's time and score.
    case best

    /// The time `duration` on the movie timeline, to the nanosecond (`rational` at 1,000,000,000 units a second;
    /// durations past 292 years saturate).
    public static func duration(_ duration: Duration) -> ThumbnailTime {
        .rational(value: duration.whole(unitsPerSecond: 1_000_000_000), timescale: 1_000_000_000)
    }

    /// Checks what no movie has a frame for.
    /// - Throws: `ThumbnailError` `invalidOption` for seconds or a fraction that are not finite, a timescale that is not
    ///   positive, or a negative frame number.
    public func validate() throws(ThumbnailError) {
        switch self {
        case .seconds(let seconds):
            guard seconds.isFinite else { throw ThumbnailError(.invalidOption, "time \(seconds) is not finite") }
        case .rational(_, let timescale):
            guard timescale > 0 else { throw ThumbnailError(.invalidOption, "timescale \(timescale) is not positive") }
        case .fraction(let fraction):
            guard fraction.isFinite else { throw ThumbnailError(.invalidOption, "fraction \(fraction) is not finite") }
        case .frame(let number):
            guard number >= 0 else { throw ThumbnailError(.invalidOption, "frame \(number) is negative") }
        case .latest, .best:
            break
        }
    }

    /// The time in seconds, when it is one without the movie (a number of seconds or a rational time).
    public var seconds: Double? {
        switch self {
        case .seconds(let seconds): seconds
        case .rational(let value, let timescale): timescale > 0 ? Double(value) / Double(timescale) : nil
        case .fraction, .frame, .latest, .best: nil
        }
    }

    /// The time as errors show it: `2.5 s`, `1001/30000 s`, `50.0 % of the duration`, `frame 12`, `latest`, `best`.
    public var description: String {
        switch self {
        case .seconds(let seconds): "\(seconds) s"
        case .rational(let value, let timescale): "\(value)/\(timescale) s"
        case .fraction(let fraction): "\((fraction * 1e8).rounded() / 1e6) % of the duration"  // 7 %, not 7.000000000000001
        case .frame(let number): "frame \(number)"
        case .latest: "latest"
        case .best: "best"
        }
    }
}
