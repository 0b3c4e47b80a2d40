import Hummingbird
import Logging
import NIOCore

/// `thumbs worker --metrics-port P`: `GET /metrics` in Prometheus' text format, what the worker did so far: messages
/// received, pictures made, outputs found current, failures (records written), inputs gone, events ignored, messages
/// left to the queue and handed back (counters), messages in flight and the age of the oldest message the last
/// receive gave (gauges); `GET /healthz` answers `ok`.
enum WorkerMetricsServer {
    /// The exposition of `counts`.
    static func exposition(_ counts: QueueWorker.Counts) -> String {
        let counters: [(String, Int, String)] = [
            ("received", counts.received, "Messages received."),
            ("made", counts.made, "Pictures made and written."),
            ("current", counts.current, "Pictures found current, not made again."),
            ("failed", counts.failed, "Inputs that cannot make a picture (failure record written) and unreadable messages."),
            ("gone", counts.gone, "Inputs gone (404) or forbidden (403)."),
            ("ignored", counts.ignored, "Events for keys under the output prefix."),
            ("retried", counts.retried, "Messages left to the queue after a transient failure."),
            ("handed_back", counts.handedBack, "Messages handed back when stopping."),
        ]
        var text = ""
        for (name, value, help) in counters {
            text += "# HELP thumbs_worker_\(name)_total \(help)\n# TYPE thumbs_worker_\(name)_total counter\n"
            text += "thumbs_worker_\(name)_total \(value)\n"
        }
        text += "# HELP thumbs_worker_in_flight Messages being worked on.\n# TYPE thumbs_worker_in_flight gauge\n"
        text += "thumbs_worker_in_flight \(counts.inFlight)\n"
        text += "# HELP thumbs_worker_oldest_message_age_seconds Age, when received, of the oldest message the last receive gave.\n"
        text += "# TYPE thumbs_worker_oldest_message_age_seconds gauge\n"
        text += "thumbs_worker_oldest_message_age_seconds \(counts.oldestMessageAgeSeconds)\n"
        return text
    }

    /// Serves `worker`'s metrics on `host`:`port` until the task is cancelled.
    static func run(host: String, port: Int, worker: QueueWorker) async throws {
        let router = Router()
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: exposition(worker.counts))))
        }
        router.get("/healthz") { _, _ in "ok\n" }
        var logger = Logger(label: "thumbs.worker.metrics")
        logger.logLevel = .warning
        let application = Application(router: router, configuration: .init(address: .hostname(host, port: port), serverName: "thumbs"),
                                      logger: logger)
        try await application.run()
    }
}
