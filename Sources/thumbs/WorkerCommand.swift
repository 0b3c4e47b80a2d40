import ArgumentParser
import Foundation
import RangeFetch
import Thumbs
import ThumbsBatch

/// `thumbs worker`: pictures of the objects an SQS queue announces (S3 event notifications, or job messages), written
/// back under an `s3://` prefix, by as many stateless processes on as many machines as the queue feeds
/// (`QueueWorker`).
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Make the pictures of the objects an SQS queue announces (S3 event notifications, or {\"input\": ...} jobs) and write them under an s3:// prefix; a message is deleted only once its pictures are written."
    )

    @Option(name: .customLong("queue-url"), help: "The SQS queue's URL.")
    var queueURL: String

    @Option(name: .shortAndLong, help: "The s3://bucket/prefix/ the pictures go under, each at its input's key with the format's extension (events for keys under it are ignored).")
    var output: String

    @OptionGroup var picture: ThumbnailFlags

    @Option(help: "Messages worked on at once (default: two per core).")
    var jobs: Int?

    @Option(help: "Seconds a message stays invisible to other workers, extended while it is worked on (default 60).")
    var visibility: Int = 60

    @Option(help: "Seconds a receive waits for a message (long polling, 0-20; default 20).")
    var wait: Int = 20

    @Option(help: "Seconds the work under way may take to finish after SIGTERM or Ctrl-C before the rest is handed back (default 25).")
    var grace: Double = 25

    @Option(name: .customLong("metrics-port"), help: "Serve GET /metrics (Prometheus text) and /healthz on this port.")
    var metricsPort: Int?

    @Option(name: .customLong("metrics-host"), help: "The address the metrics listen on (default 127.0.0.1; 0.0.0.0 in a container).")
    var metricsHost = "127.0.0.1"

    /// --format, else png.
    private var formatName: String { picture.format?.lowercased() ?? "png" }

    func validate() throws {
        guard ObjectStoreDestination(prefix: output, store: S3ObjectStore()) != nil else {
            throw ValidationError("-o takes an s3://bucket/prefix/")
        }
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be between 1 and 256") }
        if !(0...20).contains(wait) { throw ValidationError("--wait must be between 0 and 20 seconds") }
        if visibility < 6 { throw ValidationError("--visibility must be at least 6 seconds") }
        if picture.latest || picture.frame != nil { throw ValidationError("a worker takes a time, --percent or --best") }
        try picture.checkLossless(writtenAs: formatName)
    }

    func run() async throws {
        let store = S3ObjectStore()
        guard let destination = ObjectStoreDestination(prefix: output, store: store) else { throw ExitCode.validationFailure }
        var queueOptions = HTTPFetchOptions()
        queueOptions.readTimeout = .seconds(wait + 10)  // the long poll, and then some
        let queue: SQSQueue
        do {
            queue = try SQSQueue(url: queueURL, options: queueOptions)
        } catch {
            printError("thumbs: \(queueURL): \(error)")
            throw ExitCode.validationFailure
        }
        var options = ThumbnailBatch.Options()
        options.time = picture.requestedTime
        options.thumbnail = try picture.thumbnailOptions(format: picture.imageFormat(named: formatName))
        let worker = QueueWorker(queue: queue, destination: destination, store: store, options: options,
                                 extensionName: formatName == "jpeg" ? "jpg" : formatName,
                                 jobs: jobs ?? 2 * ThumbnailService.coreCount, visibilitySeconds: visibility, waitSeconds: wait,
                                 grace: .milliseconds(Int64(grace * 1000)), log: { printError($0) })
        let interruption = Interruption()
        interruption.onSignal { worker.stop() }
        defer { interruption.end() }
        printError("thumbs worker: taking messages from \(queueURL), writing under \(output)")
        let metrics = metricsPort.map { port in
            Task { [metricsHost] in
                do {
                    try await WorkerMetricsServer.run(host: metricsHost, port: port, worker: worker)
                } catch {
                    printError("thumbs worker: metrics on \(metricsHost):\(port): \(error)")
                }
            }
        }
        await worker.run()
        metrics?.cancel()
        _ = await metrics?.value
        let counts = worker.counts
        printError("thumbs worker: stopped: \(counts.received) messages, \(counts.made) made, \(counts.current) current, "
                   + "\(counts.failed) failed, \(counts.gone) gone, \(counts.ignored) ignored, \(counts.retried) left to the queue, "
                   + "\(counts.handedBack) handed back")
    }
}
