import ByteSources
import Matroska
import MP4Box
import StreamManifests

extension StreamSession {
    /// A DASH representation of one WebM or Matroska file (`SegmentBase`: the manifest's `mimeType` says
    /// `video/webm`, the `Initialization` range holds the file's head and the `indexRange` its Cues) with its Cues'
    /// spans as its segments, as a Matroska file read on its own has them, on the period's timeline (each span's
    /// `mediaStart` its cue time in the file); nil for any other rendition. The index is read once per file: the two
    /// ranges the manifest names in one request, and where they do not hold it (a SeekHead that points elsewhere),
    /// as a Matroska file's index is located.
    /// - Throws: `MatroskaError`, `ThumbnailError` (`noVideo`, `noSamples`), or the input's errors.
    func withMatroskaSpans(_ rendition: StreamRendition) async throws -> StreamRendition? {
        guard describedBy == .manifest, rendition.isMatroska, let segments = rendition.segments, segments.count == 1,
              let whole = segments.first, whole.resource.byteRange == nil else { return nil }
        let url = whole.resource.url
        let file = try await matroskaFile(at: url, indexRanges: Self.coalesced([whole.initialization?.byteRange, whole.indexRange].compactMap { $0 }))
        let spans = try file.index.presentation(url: url).periods.first?.renditions.first?.segments ?? StreamSegments([])
        // The file's timeline starts at the period's start, less the presentation time offset.
        let shift = whole.timeRange.lowerBound - (whole.mediaStart ?? .zero)
        var placed: [StreamSegment] = []
        for number in 0 ..< (spans.count ?? 0) {
            guard var span = spans.segment(at: number) else { continue }
            span.mediaStart = span.timeRange.lowerBound
            let start = span.timeRange.lowerBound + shift
            span.timeRange = start ..< max(span.timeRange.upperBound + shift, start + .nanoseconds(1))
            placed.append(span)
        }
        var complete = rendition
        complete.content = .segments(StreamSegments(placed))
        return complete
    }

    /// `ranges` in order, those that touch or are at most `gapBytes` apart made one (the Cues right after the head, as
    /// YouTube's WebM has them, are one read with it).
    static func coalesced(_ ranges: [Range<UInt64>], gapBytes: UInt64 = 4096) -> [Range<UInt64>] {
        var merged: [Range<UInt64>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound + gapBytes {
                merged[merged.count - 1] = last.lowerBound ..< max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// The Matroska file at `url`, its index read on first use from `indexRanges` (one request) where they hold it,
    /// else located as a Matroska file's is.
    private func matroskaFile(at url: String, indexRanges: [Range<UInt64>]) async throws -> MatroskaFileReading {
        if let read = matroskaFiles[url] { return read }
        let source = CountingByteSource(try input.input(at: url).open(known: nil))
        var fromRanges: MatroskaLocator.Result?
        if !indexRanges.isEmpty, indexRanges.reduce(0, { $0 + $1.count }) <= Self.maximumInitializationBytes {
            var held = HeldBytes()
            for (range, bytes) in zip(indexRanges, try await source.read(ranges: indexRanges)) where !bytes.isEmpty {
                held.insert(bytes, at: range.lowerBound)
            }
            fromRanges = try? MatroskaLocator().locate(in: held, length: await source.knownLength)
        }
        let found: MatroskaLocator.Result
        if let fromRanges {
            found = fromRanges
        } else {
            found = try await source.run(MatroskaLocator(knownLength: await source.knownLength))
        }
        let read = MatroskaFileReading(index: MatroskaIndex(located: found), held: found.heldBytes, source: source)
        matroskaFiles[url] = read
        return read
    }
}
