/// Samples sent to a decoder whose pictures have not come out yet: the composition time of each, by sample index.
///
/// Every decoder library hands a picture back tagged with the sample index it was given as a timestamp; this turns
/// the tag back into the time the picture is shown, and tells a reorder buffer what could still come before it.
struct PendingSamples {
    private var times: [Int: Int64] = [:]

    /// Notes that `sampleIndex`, shown at `compositionTime`, was sent to the decoder.
    mutating func sent(sampleIndex: Int, compositionTime: Int64) {
        times[sampleIndex] = compositionTime
    }

    /// The composition time of the picture made from `sampleIndex`, which is pending no longer; 0 for a sample that
    /// was never sent (a picture the library made up).
    @discardableResult
    mutating func pictureCameOut(sampleIndex: Int) -> Int64 {
        times.removeValue(forKey: sampleIndex) ?? 0
    }

    /// The earliest composition time still pending, or nil when every sample sent has come out.
    var earliest: Int64? { times.values.min() }

    /// Forgets every sample sent (after a flush or a reset).
    mutating func removeAll() {
        times.removeAll()
    }
}
