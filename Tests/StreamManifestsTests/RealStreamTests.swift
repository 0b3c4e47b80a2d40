import Foundation
import StreamManifests
import Testing

/// Real streams from other projects' test data (Fixtures/streams/SOURCES.md), against what FFmpeg's own HLS and DASH
/// readers request and what the media files' boxes and timestamps say (Fixtures/streams/make-expectations.py).
@Suite struct RealStreamTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/streams")

    struct Expectations: Decodable {
        struct Manifest: Decodable {
            var manifest: String
            var ffmpegRequests: [[Request]]?
            var ffprobeDuration: String?
        }

        /// One element of a `[url, offset]` pair.
        enum Request: Decodable, Hashable {
            case url(String)
            case offset(UInt64)

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let offset = try? container.decode(UInt64.self) { self = .offset(offset) } else {
                    self = .url(try container.decode(String.self))
                }
            }
        }

        var manifests: [Manifest]
        var fragments: [String: [[UInt64]]]
        var firstDecodeTimes: [String: String]
    }

    static let expectations: Expectations = {
        do {
            let data = try Data(contentsOf: folder.appendingPathComponent("expectations.json"))
            return try JSONDecoder().decode(Expectations.self, from: data)
        } catch {
            fatalError("Fixtures/streams/expectations.json: \(error)")
        }
    }()

    static func distance(_ one: Duration, _ other: Duration) -> Duration { one > other ? one - other : other - one }

    /// A place in a file: its path and the first byte read.
    struct Place: Hashable, CustomStringConvertible {
        var path: String
        var offset: UInt64
        var description: String { "\(path.split(separator: "/").suffix(2).joined(separator: "/"))@\(offset)" }
    }

    /// The presentation in `path`, with each rendition that names a media playlist replaced by that playlist's.
    static func presentation(_ path: String) throws -> StreamPresentation {
        var presentation = try StreamManifest.read(try String(contentsOfFile: path, encoding: .utf8), url: path)
        for periodIndex in presentation.periods.indices {
            for index in presentation.periods[periodIndex].renditions.indices {
                let rendition = presentation.periods[periodIndex].renditions[index]
                guard case .mediaPlaylist(let url) = rendition.content else { continue }
                let media = try StreamManifest.read(try String(contentsOfFile: url, encoding: .utf8), url: url)
                presentation.periods[periodIndex].renditions[index].content = media.periods[0].renditions[0].content
            }
        }
        return presentation
    }

    static func segments(_ rendition: StreamRendition) throws -> [StreamSegment] {
        let segments = try #require(rendition.segments)
        let count = try #require(segments.count)
        return (0 ..< count).compactMap { segments.segment(at: $0) }
    }

    /// What a player reads for a rendition, in order: each init segment where it changes, then each segment.
    static func places(_ rendition: StreamRendition) throws -> [Place] {
        var places: [Place] = []
        var initialization: StreamResource?
        for segment in try segments(rendition) {
            if let next = segment.initialization, next != initialization {
                places.append(Place(path: next.url, offset: next.byteRange?.lowerBound ?? 0))
                initialization = next
            }
            places.append(Place(path: segment.resource.url, offset: segment.resource.byteRange?.lowerBound ?? 0))
        }
        return places
    }

    @Test(arguments: expectations.manifests.map(\.manifest))
    func segmentsAreWhatFFmpegReads(manifest: String) throws {
        let expected = try #require(Self.expectations.manifests.first { $0.manifest == manifest })
        let path = Self.folder.appendingPathComponent(manifest).path
        let presentation = try Self.presentation(path)
        let renditions = presentation.periods.flatMap(\.renditions)
        let ours = try renditions.map(Self.places)
        let folder = (path as NSString).deletingLastPathComponent
        // Every file a segment names is in the fixture.
        for place in ours.joined() {
            #expect(FileManager.default.fileExists(atPath: place.path), "\(place)")
        }
        // Each segment that lasts is the one found at its own start (a timeline's start is its tick time to the
        // attosecond below, which must not read back as the segment before).
        for rendition in renditions {
            let segments = try #require(rendition.segments)
            for (index, segment) in try Self.segments(rendition).enumerated() where !segment.timeRange.isEmpty {
                #expect(segments.index(containing: segment.timeRange.lowerBound) == index, "\(manifest) segment \(index)")
            }
        }
        if let requests = expected.ffmpegRequests {
            var theirs = requests.compactMap { pair -> Place? in
                guard case .url(let url) = pair.first, case .offset(let offset) = pair.last else { return nil }
                return Place(path: folder + "/" + url, offset: offset)
            }
            if let misread = Self.ffmpegMisreads[manifest] {
                // What FFmpeg asks for that is not in the stream fails for it too; the segment it skips is there.
                #expect(theirs.filter { !FileManager.default.fileExists(atPath: $0.path) }.map(\.description) == misread.absent)
                theirs = theirs.filter { FileManager.default.fileExists(atPath: $0.path) }
            }
            // FFmpeg reads nothing we do not know of...
            let known = Set(ours.joined())
            #expect(theirs.filter { !known.contains($0) } == [], "\(manifest)")
            // ...and, in a single period (FFmpeg's DASH reader reads the first alone), each rendition's segments in
            // our order; but an I-frame playlist's, which FFmpeg's HLS reader does not read.
            if presentation.periods.count == 1 {
                for (rendition, places) in zip(renditions, ours) where !places.isEmpty && !rendition.isIFrameOnly {
                    let mine = Set(places)
                    let skipped = Set(Self.ffmpegMisreads[manifest]?.skipped ?? [])
                    #expect(theirs.filter(mine.contains) == places.filter { !skipped.contains($0.description) }, "\(manifest)")
                }
            }
        }
        // FFmpeg's DASH reader takes a period's and a presentation's durations in whole seconds and reads one period;
        // its HLS reader sums the segments' durations.
        if presentation.format == .hls, let text = expected.ffprobeDuration, let seconds = Double(text) {
            let duration = try #require(presentation.duration ?? renditions.compactMap { $0.segments?.timeRange?.upperBound }.max())
            #expect(Self.distance(duration, .seconds(seconds)) < .milliseconds(1), "\(manifest): \(duration) against \(text) s")
        }
    }

    /// Where FFmpeg's reading is wrong, checked against the files of the stream: in DASH-IF's livesim2 test vector
    /// (a SegmentTimeline whose second S has no `t`), FFmpeg skips each rendition's first segment (`0.m4s`, which
    /// is there and starts at 0, see firstDecodeTimes) and asks for one past the last (`576512.m4s`: 12 s, the
    /// presentation's end).
    static let ffmpegMisreads: [String: (absent: [String], skipped: [String])] = [
        "livesim2-testpic-alt-seg-dur-stl/Manifest.mpd": (absent: ["A48/576512.m4s@0"], skipped: ["A48/0.m4s@0", "V300/0.m4s@0"]),
    ]

    /// Segments cut from one file are the file's fragments (for manifests FFmpeg cannot read: shaka 6339 stops with
    /// "Invalid data", Media3's emsg stream never ends).
    @Test func segmentRangesAreTheFilesFragments() throws {
        for manifest in ["shaka-6339/master.mpd", "media3-dash-multi-segment-with-emsg1/manifest.mpd"] {
            let presentation = try Self.presentation(Self.folder.appendingPathComponent(manifest).path)
            var checked = 0
            for rendition in presentation.periods.flatMap(\.renditions) {
                let segments = try Self.segments(rendition)
                let file = try #require(segments.first?.resource.url)
                let relative = String(file.dropFirst(Self.folder.path.count + 1))
                let fragments = try #require(Self.expectations.fragments[relative], "\(relative)")
                #expect(segments.map(\.resource.url) == Array(repeating: file, count: segments.count))
                #expect(segments.map { $0.resource.byteRange.map { [$0.lowerBound, $0.upperBound] } } == fragments)
                checked += 1
            }
            #expect(checked > 0)
        }
    }

    /// A template's segment times follow the segments' own decode times (which ffprobe shifts by the track's edit
    /// list: the same shift for every segment of a stream).
    @Test(arguments: ["media3-cmaf-multi-segment/manifest.mpd", "livesim2-testpic-alt-seg-dur-stl/Manifest.mpd",
                      "shaka-7401/dash_2.mpd", "shaka-7401/dash_0.mpd"])
    func segmentTimesFollowTheMedia(manifest: String) throws {
        let presentation = try Self.presentation(Self.folder.appendingPathComponent(manifest).path)
        var shifts: [Duration] = []
        for period in presentation.periods {
            for rendition in period.renditions {
                // Segments start as far apart on the timeline as their media does.
                let segments = try Self.segments(rendition)
                for (earlier, later) in zip(segments, segments.dropFirst()) {
                    let mediaStep = try #require(later.mediaStart) - #require(earlier.mediaStart)
                    #expect(later.timeRange.lowerBound - earlier.timeRange.lowerBound == mediaStep)
                }
            }
            for segment in try period.renditions.flatMap(Self.segments) {
                let relative = String(segment.resource.url.dropFirst(Self.folder.path.count + 1))
                guard let text = Self.expectations.firstDecodeTimes[relative], let seconds = Double(text) else { continue }
                let mediaStart = try #require(segment.mediaStart)
                shifts.append(mediaStart - .seconds(seconds))
            }
        }
        #expect(shifts.count >= 2)
        let first = try #require(shifts.first)
        #expect(shifts.allSatisfy { Self.distance($0, first) < .milliseconds(1) }, "\(shifts)")
    }
}
