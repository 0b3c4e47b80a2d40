import MP4Box

/// The keyframes `ThumbnailTime.best` chooses among: the sync sample nearest each of `count` times spread evenly
/// over what the movie shows without its first and last 5 % (the middles of `count` equal parts of 5...95 % of the
/// span from its first picture to its end), each once, in presentation order. A movie with fewer keyframes there
/// gives fewer; one with none there gives its keyframe nearest the window (the first one of a movie with a single
/// keyframe).
package struct BestFramePlan: Sendable {
    /// One keyframe to score.
    package struct Keyframe: Sendable {
        package var sample: Sample
        /// Its presentation time, in the track's timescale.
        package var presentationTime: Int64
    }

    /// Share of the duration left out at each end.
    package static let skippedEnds = 0.05
    /// Most candidates a thumbnail may ask for.
    package static let maximumCount = 100

    /// The keyframes, in presentation order, each once.
    package var keyframes: [Keyframe]

    /// The candidates of `track`.
    /// - Throws: `ThumbnailError` `noSamples` when the track has no keyframe to show; `MP4Error` when the tables cannot
    ///   place one.
    package init(track: MovieTrack, count: Int) throws {
        let end = track.presentationTime(seconds: track.durationSeconds)
        // A track whose first picture comes late (a cut of a longer stream, an edit that starts with a gap) is
        // spread over what it shows, not over the wait before it.
        let first = try track.firstPresentedSample().map { max(0, track.presentationTime(of: $0)) } ?? 0
        let start = min(first, end)
        let wanted = min(max(1, count), Self.maximumCount)
        var chosen: [Int: Keyframe] = [:]
        for part in 0..<wanted {
            let fraction = Self.skippedEnds + (1 - 2 * Self.skippedEnds) * (Double(part) + 0.5) / Double(wanted)
            let time = start + Int64((Double(end - start) * fraction).rounded(.down))
            guard let sample = try track.syncSample(nearest: time) else { continue }
            chosen[sample.index] = Keyframe(sample: sample, presentationTime: track.presentationTime(of: sample))
        }
        guard !chosen.isEmpty else {
            throw ThumbnailError(.noSamples, "track \(track.id) has no keyframe to choose the best frame from")
        }
        keyframes = chosen.values.sorted {
            ($0.presentationTime, $0.sample.index) < ($1.presentationTime, $1.sample.index)
        }
    }

    /// Runs of consecutive keyframes (positions in `keyframes`) of at most `maximumBytes` together (a larger keyframe
    /// alone): each run is fetched with one `ByteSource.read(ranges:)`, one request over HTTP where the origin answers
    /// several ranges, so the bytes held at once stay within the bound however many candidates there are.
    package func fetchGroups(maximumBytes: Int) -> [Range<Int>] {
        var groups: [Range<Int>] = []
        var start = 0
        var bytes = 0
        for (position, keyframe) in keyframes.enumerated() {
            let size = Int(keyframe.sample.size)
            if position > start, bytes + size > maximumBytes {
                groups.append(start..<position)
                (start, bytes) = (position, 0)
            }
            bytes += size
        }
        if !keyframes.isEmpty { groups.append(start..<keyframes.count) }
        return groups
    }
}
