import Foundation
import RangeFetch
import Synchronization
import Thumbs
import ThumbsBatch

/// `thumbs worker`'s loop: messages taken from an SQS queue by long polling, as many at once as `jobs` allows (their
/// decodes within one per core, their fetches within eight, as a batch's), each
/// message's pictures made and written under an `s3://` prefix (`ObjectStoreDestination`, the batch's records: an
/// output that is current is not made again), and the message deleted only once every output is written, so a crash
/// at any point loses nothing (delivery is at least once; outputs are idempotent).
///
/// While a message is worked on its visibility is extended (every third of `visibilitySeconds`). An input that cannot
/// make a picture (not a movie, no video, encrypted, damaged) gets a failure record beside where its picture would be
/// (`<output>.error.json`: the error's type and text) and its message is deleted; a source that is gone (404) or
/// forbidden (403) is counted and its message deleted; a transient failure (5xx, timeouts, connections) leaves the
/// message to the queue, which gives it again after its visibility timeout (and parks it after the redrive policy's
/// `maxReceiveCount`). Events for keys under the output prefix are deleted unread: the worker never reacts to its
/// own outputs. `stop()` stops receiving; what is under way finishes within `grace`, and what does not is handed back
/// at once (visibility 0).
final class QueueWorker: Sendable {
    /// What happened to the messages and pictures so far.
    struct Counts: Sendable, Equatable {
        var received = 0
        var made = 0
        var current = 0
        var failed = 0
        var gone = 0
        var ignored = 0
        var retried = 0
        var handedBack = 0
        /// Messages being worked on.
        var inFlight = 0
        /// The age, when received, of the oldest message the last receive gave (0 when it gave none), in seconds.
        var oldestMessageAgeSeconds: Double = 0
    }

    let queue: SQSQueue
    let destination: ObjectStoreDestination
    let store: S3ObjectStore
    let options: ThumbnailBatch.Options
    let extensionName: String
    let jobs: Int
    let visibilitySeconds: Int
    let waitSeconds: Int
    let grace: Duration
    let log: @Sendable (String) -> Void

    /// The bounds every message's picture decodes and fetches within: one decode per core, as a batch's.
    private let limits = ThumbnailWorkLimits(fetches: 8, decodes: ThumbnailService.coreCount)
    private let state = Mutex<(counts: Counts, stopping: Bool, receiving: Task<[SQSQueue.Message], any Error>?)>((Counts(), false, nil))

    init(queue: SQSQueue, destination: ObjectStoreDestination, store: S3ObjectStore, options: ThumbnailBatch.Options,
         extensionName: String, jobs: Int, visibilitySeconds: Int, waitSeconds: Int, grace: Duration,
         log: @escaping @Sendable (String) -> Void) {
        self.queue = queue
        self.destination = destination
        self.store = store
        self.options = options
        self.extensionName = extensionName
        self.jobs = max(1, jobs)
        self.visibilitySeconds = max(6, visibilitySeconds)
        self.waitSeconds = waitSeconds
        self.grace = grace
        self.log = log
    }

    /// The counts now.
    var counts: Counts { state.withLock { $0.counts } }

    /// Stops receiving: `run()` returns once what is under way is done (or handed back after the grace period).
    func stop() {
        let receiving = state.withLock { state in
            state.stopping = true
            return state.receiving
        }
        receiving?.cancel()  // a long poll ends now, not when it times out
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    private func count(_ change: (inout Counts) -> Void) {
        state.withLock { change(&$0.counts) }
    }

    /// Receives and works until `stop()`.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            while !isStopping {
                let free = jobs - state.withLock { $0.counts.inFlight }
                if free <= 0 {
                    _ = await group.next()  // one finished (maybe earlier): look again
                    continue
                }
                let (queue, waitSeconds, visibilitySeconds) = (self.queue, self.waitSeconds, self.visibilitySeconds)
                let receiving = Task { try await queue.receive(maximum: min(10, free), waitSeconds: waitSeconds, visibilitySeconds: visibilitySeconds) }
                let stopped = state.withLock { state in
                    state.receiving = receiving
                    return state.stopping
                }
                if stopped { receiving.cancel() }
                let messages: [SQSQueue.Message]
                do {
                    messages = try await receiving.value
                } catch {
                    if !isStopping {
                        log("thumbs worker: receiving from \(queue.url) failed: \(error)")
                        try? await Task.sleep(for: .seconds(1))
                    }
                    continue
                }
                let now = Date()
                count {
                    $0.received += messages.count
                    $0.inFlight += messages.count
                    $0.oldestMessageAgeSeconds = messages.compactMap(\.sentAt).map { max(0, now.timeIntervalSince($0)) }.max() ?? 0
                }
                for message in messages {
                    group.addTask {
                        await self.handle(message)
                        self.count { $0.inFlight -= 1 }
                    }
                }
            }
            // Stopping: what is under way may finish within the grace period; the rest is handed back.
            let deadline = ContinuousClock.now + grace
            while state.withLock({ $0.counts.inFlight }) > 0, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(100))
            }
            group.cancelAll()
        }
    }

    /// Works on one message: its pictures, its visibility kept up meanwhile, then its deletion (or its hand-back when
    /// the worker is stopped before it is done).
    private func handle(_ message: SQSQueue.Message) async {
        let heartbeat = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(visibilitySeconds / 3))
                try await queue.changeVisibility(message.receiptHandle, seconds: visibilitySeconds)
            }
        }
        defer { heartbeat.cancel() }
        let done: Bool
        switch QueueMessage(body: message.body) {
        case .test:
            done = true
        case .unreadable(let why):
            log("thumbs worker: message \(message.id): \(why); deleted")
            count { $0.failed += 1 }
            done = true
        case .jobs(let jobs):
            var allDone = true
            for job in jobs where !Task.isCancelled {
                if await !work(job) { allDone = false }
            }
            done = allDone && !Task.isCancelled
        }
        do {
            if done {
                try await queue.delete(message.receiptHandle)
            } else if Task.isCancelled {
                try await queue.changeVisibility(message.receiptHandle, seconds: 0)
                count { $0.handedBack += 1 }
            }
        } catch {
            log("thumbs worker: message \(message.id): \(error)")
        }
    }

    /// Makes `job`'s picture; whether the message may be deleted for it (false: a transient failure, left to the
    /// queue, or a stop).
    private func work(_ job: QueueMessage.Job) async -> Bool {
        let target = job.output.flatMap { ObjectStoreDestination(prefix: $0, store: store) } ?? destination
        if let location = S3Location(job.input), location.bucket == target.bucket, location.key.hasPrefix(target.prefix) {
            count { $0.ignored += 1 }  // an output of ours (or beside them): never a job
            return true
        }
        let output = Self.outputName(of: job.input, extensionName: extensionName)
        do {
            let input: any MovieInput = try S3Location(job.input).map { try S3Input($0, configuration: store.configuration) }
                ?? HTTPInput(url: job.input)
            let item = BatchItem(input: input, output: output)
            if try await ThumbnailBatch.isCurrent(item, in: target, key: options.key) {
                count { $0.current += 1 }
                return true
            }
            let thumbnail = try await Media.withMedia(of: input, sampleCacheBytes: options.thumbnail.limits.sampleCacheBytes,
                                                      workLimits: limits) { media in
                try await ThumbnailGenerator(media: media, options: options.thumbnail).image(at: options.time)
            }
            try await target.write(thumbnail.encoded, to: output, contentType: options.thumbnail.format?.mediaType ?? "image/png",
                                   record: ThumbnailBatch.record(of: item, thumbnail: thumbnail, key: options.key))
            count { $0.made += 1 }
            return true
        } catch is CancellationError {
            return false
        } catch let error as FetchError where error.code == .notFound || error.code == .forbidden {
            log("thumbs worker: \(job.input): \(error)")
            count { $0.gone += 1 }
            return true
        } catch let error as FetchError where Self.isTransient(error) {
            log("thumbs worker: \(job.input): \(error) (left to the queue)")
            count { $0.retried += 1 }
            return false
        } catch {
            // The input cannot make a picture: a record of why, where its picture would be.
            log("thumbs worker: \(job.input): \(error)")
            let record: [String: String] = ["input": job.input, "type": String(describing: type(of: error)), "text": String(describing: error)]
            do {
                let bytes = [UInt8](try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]))
                try await target.write(bytes, to: output + ".error.json", contentType: "application/json", record: nil)
            } catch {
                log("thumbs worker: \(job.input): its failure record was not written: \(error) (left to the queue)")
                count { $0.retried += 1 }
                return false
            }
            count { $0.failed += 1 }
            return true
        }
    }

    /// Whether `error` may pass if tried again later.
    static func isTransient(_ error: FetchError) -> Bool {
        switch error.code {
        case .serverError, .timedOut, .connectionRefused, .connectionReset, .connectionFailed, .truncatedBody: true
        default: false
        }
    }

    /// The output of `input` (`s3://bucket/a/b.mp4` or a URL): its key (or path) with the format's extension in place
    /// of its own.
    static func outputName(of input: String, extensionName: String) -> String {
        let path = S3Location(input)?.key ?? (URLComponents(string: input)?.path.drop { $0 == "/" }).map(String.init) ?? input
        let stem = (path as NSString).deletingPathExtension
        return (stem.isEmpty ? "index" : stem) + "." + extensionName
    }
}
