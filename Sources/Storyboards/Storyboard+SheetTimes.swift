extension Storyboard {
    /// For each sheet, the span of the movie timeline its cues cover: from its first cue's start to its last cue's
    /// end (cues are contiguous, so one sheet's end is the next one's start).
    var sheetTimes: [Range<Duration>] {
        var spans = [Range<Duration>?](repeating: nil, count: sheets.count)
        for cue in cues where spans.indices.contains(cue.sheet) {
            let span = spans[cue.sheet].map {
                min($0.lowerBound, cue.timeRange.lowerBound)..<max($0.upperBound, cue.timeRange.upperBound)
            }
            spans[cue.sheet] = span ?? cue.timeRange
        }
        return spans.map { $0 ?? .zero ..< .zero }
    }

    /// The tile grid of sheet `index`, columns by rows, as its pixel size holds it (a last sheet may have fewer rows).
    func layout(ofSheet index: Int) -> (columns: Int, rows: Int) {
        guard !singleImages, tileSize.width > 0, tileSize.height > 0 else { return (1, 1) }
        return (max(1, sheets[index].width / tileSize.width), max(1, sheets[index].height / tileSize.height))
    }

    /// `time` as seconds with three decimals (to the nearest millisecond), as manifests write times.
    static func seconds(_ time: Duration) -> String {
        let milliseconds = time.nearestMilliseconds
        let sign = milliseconds < 0 ? "-" : ""
        let magnitude = milliseconds.magnitude
        let fraction = String(magnitude % 1000)
        return sign + String(magnitude / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
