import BoundedTasks
import ByteSources
import Foundation
import Thumbs

/// Thumbnails of a library of movies, written to one destination (a directory, an object store's prefix: a
/// `BatchDestination`): a few movies at once within shared bounds on decodes and fetches (the batch's own
/// `ThumbnailWorkLimits`), each movie opened once (`Media.withMedia`) for its thumbnail and its companion, each output
/// written whole or not at all, and what was made remembered with the outputs so that a later batch skips it unless
/// its input changed.
///
/// `results()` gives one `BatchResult` per movie as each finishes, with the batch's progress. Memory stays within
/// the movies in flight, however many there are: of a finished movie only its ledger entry is kept (a few short
/// strings).
public struct ThumbnailBatch: Sendable {
    /// What is made and how much at once.
    public struct Options: Sendable {
        /// The time of each thumbnail (nil: the poster time, else 10 %; `.best` for the best keyframe).
        public var time: ThumbnailTime?
        /// How each thumbnail looks; its `format` must not be nil (the thumbnail is written in it).
        public var thumbnail = ThumbnailOptions()
        /// Movies worked on at once, 1...`maximumMoviesAtOnce`. Default: two per core (one reading while the other
        /// decodes).
        public var moviesAtOnce = 2 * ThumbnailService.coreCount
        /// Decodes at once, over every movie. Default: one per core.
        public var maximumConcurrentDecodes = ThumbnailService.coreCount
        /// Sample fetches at once, over every movie.
        public var maximumConcurrentFetches = 8
        /// Make every output again, even those the ledger says are current (`--force`).
        public var remakesAll = false
        /// Something else to make of each movie, in a folder of its own (a storyboard), or nil.
        public var companion: (any BatchCompanion)?

        /// The defaults: the default time and look, PNG.
        public init() {}

        /// What a record remembers of these options: an output made with other options is made again. Named
        /// fields, so that a field added to `ThumbnailOptions` later does not make every output again.
        public var key: String {
            let look = thumbnail
            var parts = ["time=\(time?.description ?? "default")", "size=\(look.maximumSize)", "fit=\(look.fitMode)",
                         "upscale=\(look.allowsUpscaling)", "aperture=\(look.apertureMode.rawValue)",
                         "transform=\(look.appliesPreferredTrackTransform)",
                         "before=\(look.requestedTimeToleranceBefore.map { "\($0)" } ?? "any")",
                         "after=\(look.requestedTimeToleranceAfter.map { "\($0)" } ?? "any")",
                         "format=\(look.format.map { "\($0)" } ?? "none")", "hdr=\(look.keepsHDR)",
                         "skipDark=\(look.skipsDarkFrames)", "candidates=\(look.bestFrameCandidateCount)"]
            if let companion { parts.append("companion=\(companion.key)") }
            return parts.joined(separator: ";")
        }
    }

    /// Most movies worked on at once.
    public static let maximumMoviesAtOnce = 256

    /// The movies.
    public let items: [BatchItem]
    /// Where the outputs go; items' outputs are relative to it.
    public let destination: any BatchDestination
    /// What is made and how much at once.
    public let options: Options

    /// A batch of `items` written to `destination`.
    public init(items: [BatchItem], destination: any BatchDestination, options: Options = Options()) {
        self.items = items
        self.destination = destination
        self.options = options
    }

    /// A batch of `items` written under `outputDirectory` (made when missing), remembered in its ledger.
    public init(items: [BatchItem], outputDirectory: URL, options: Options = Options()) {
        self.init(items: items, destination: DirectoryDestination(directory: outputDirectory), options: options)
    }

    /// Runs the batch: one result per movie, in the order they finish. Stopping the batch (`BatchResults.cancel()`)
    /// starts no other movie and cancels those under way; the sequence ends once they are gone (a movie stopped gives
    /// no result, and none of its outputs is half-written).
    public func results() -> BatchResults {
        BatchResults { continuation in await self.run(yielding: continuation) }
    }

    private func run(yielding continuation: AsyncStream<BatchResult>.Continuation) async {
        let moviesAtOnce = min(max(1, options.moviesAtOnce), Self.maximumMoviesAtOnce, max(1, items.count))
        let limits = ThumbnailWorkLimits(fetches: max(1, options.maximumConcurrentFetches),
                                         decodes: max(1, options.maximumConcurrentDecodes))
        let started = ContinuousClock.now
        var progress = BatchProgress(total: items.count)
        // Neither the work nor the result's hand-over throws: a movie's failure is its result.
        try? await BoundedTaskGroup.run(items, atMost: moviesAtOnce, { item in
            await self.process(item, limits: limits)
        }) { finished in
            guard var result = finished else { return }
            progress.count(result.outcome)
            progress.elapsed = ContinuousClock.now - started
            result.progress = progress
            continuation.yield(result)
        }
    }

    /// One movie: skipped when its record says its outputs are current, else made and written; nil when the batch
    /// was stopped before it was done.
    private func process(_ item: BatchItem, limits: ThumbnailWorkLimits) async -> BatchResult? {
        let watch = Stopwatch()
        let meter = FetchMeter()
        let key = options.key
        let outcome: BatchResult.Outcome
        var actualTime: Double?
        do {
            try Task.checkCancellation()
            if !options.remakesAll,
               try await meter.measure({ try await Self.isCurrent(item, in: destination, key: key,
                                                                   companionFolder: options.companion?.folder(of: item)) }) {
                outcome = .skipped
            } else {
                actualTime = try await meter.measure { try await make(item, limits: limits, key: key) }
                outcome = .made
            }
        } catch {
            if Task.isCancelled { return nil }
            outcome = .failed(error)
        }
        let fetched = meter.statistics
        return BatchResult(item: item, outcome: outcome, actualTime: actualTime, bytesFetched: fetched.bytes,
                           requests: fetched.requests, duration: watch.elapsed, progress: BatchProgress(total: 0))
    }

    /// Makes `item`'s outputs and records them; the thumbnail's actual time. The thumbnail is made first (in memory),
    /// then its record voided, the companion folder put in place, the thumbnail written with its record: a movie that
    /// fails leaves its earlier thumbnail as it was (its companion too, unless that was replaced), never to be skipped.
    private func make(_ item: BatchItem, limits: ThumbnailWorkLimits, key: String) async throws -> Double {
        guard options.thumbnail.format != nil else {
            throw ThumbnailError(.invalidOption, "a batch writes its thumbnails: give them a format", input: item.input.name)
        }
        let (options, destination) = (self.options, self.destination)
        return try await Media.withMedia(of: item.input, sampleCacheBytes: options.thumbnail.limits.sampleCacheBytes,
                                         workLimits: limits) { media in
            let thumbnail = try await ThumbnailGenerator(media: media, options: options.thumbnail).image(at: options.time)
            try Task.checkCancellation()
            try await destination.void(item.output)
            if let companion = options.companion {
                try await destination.writeFolder(companion.folder(of: item)) { folder in
                    try await companion.make(of: media, item: item, into: folder)
                }
            }
            try await destination.write(thumbnail.encoded, to: item.output, contentType: options.thumbnail.format?.mediaType ?? "application/octet-stream",
                                        record: Self.record(of: item, thumbnail: thumbnail, key: key))
            return thumbnail.actualTime
        }
    }

    /// Whether `item`'s outputs in `destination` (its thumbnail, and its companion's `companionFolder`) are current:
    /// their record names the options' `key`, the item's input and that input's version now.
    /// - Throws: what looking at the destination or reading the input's first byte throws.
    public static func isCurrent(_ item: BatchItem, in destination: any BatchDestination, key: String,
                                 companionFolder: String? = nil) async throws -> Bool {
        guard let record = try await destination.record(of: item.output, companionFolder: companionFolder),
              record.key == key, record.identity == BatchItem.digest(item.input.identity) else { return false }
        return try await currentVersion(of: item.input) == record.version
    }

    /// What `item`'s `thumbnail`, made with the options' `key`, is recorded as; nil when its source told no version
    /// (a stream's): such an output is made again next time.
    public static func record(of item: BatchItem, thumbnail: Thumbnail, key: String) -> BatchRecord? {
        guard let version = thumbnail.sourceVersion?.version, !version.isEmpty else { return nil }
        return BatchRecord(input: item.input.name, identity: BatchItem.digest(item.input.identity), version: version, key: key)
    }

    /// The version of `input`'s bytes now: a file's from one `stat`, else what a source learns from reading its first
    /// byte (a URL's ETag or Last-Modified); nil when it cannot tell.
    private static func currentVersion(of input: any MovieInput) async throws -> String? {
        if let version = await input.currentVersion() { return version }
        let source = try input.open(known: nil)
        _ = try await source.read(0..<1)
        return await source.version
    }
}
