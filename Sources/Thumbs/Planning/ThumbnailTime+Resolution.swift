import MP4Box

extension ThumbnailTime {
    /// `time` on `track`'s presentation timeline (media timescale units), and the frame selection it implies:
    /// `selection`, or `.exact` for a frame number. Nil is the movie's poster time, else 10 % of the duration: the one
    /// default every command and the generator share.
    /// - Throws: `ThumbnailError` `invalidOption` as `validate()` does, and for `.best`, which is no one time (the
    ///   generator chooses it among keyframes); `MP4Error` when the tables cannot place a frame's sample.
    package static func resolve(_ time: ThumbnailTime?, in movie: Movie, track: MovieTrack,
                                selection: FrameSelection) throws -> (time: Int64, selection: FrameSelection) {
        try time?.validate()
        let duration = track.durationSeconds
        switch time {
        case nil:
            if let poster = movie.posterTimeSeconds { return (track.presentationTime(seconds: poster), selection) }
            return (track.presentationTime(seconds: duration * 0.1), selection)
        case .seconds(let seconds):
            return (track.presentationTime(seconds: seconds), selection)
        case .rational(let value, let timescale):
            return (MediaTime(value: value, timescale: UInt32(timescale)).converted(to: track.timescale).value, selection)
        case .fraction(let fraction):
            return (track.presentationTime(seconds: duration * min(max(fraction, 0), 1)), selection)
        case .latest:
            return (track.presentationTime(seconds: duration), selection)
        case .frame(let number):
            return (try presentationTime(ofFrame: number, in: track), .exact)
        case .best:
            throw ThumbnailError(.invalidOption, "the best frame is no one time: a thumbnail generator chooses it among keyframes")
        }
    }

    /// The presentation time of the `number`th frame in presentation order (the last frame when past the end).
    ///
    /// Pictures move at most 16 places between decode and presentation order (the most H.264 and HEVC allow),
    /// so the answer is among the decode-order neighbours of `number`.
    private static func presentationTime(ofFrame number: Int, in track: MovieTrack) throws -> Int64 {
        let count = track.samples.count
        let target = min(number, count - 1)
        let low = max(0, target - 16)
        let high = min(count - 1, target + 16)
        var times: [Int64] = []
        for index in low...high { times.append(track.presentationTime(of: try track.samples.sample(at: index))) }
        times.sort()
        return times[min(times.count - 1, target - low)]
    }
}
