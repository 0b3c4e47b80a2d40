import ArgumentParser
import Foundation
import Logging
import Thumbs
import ThumbsServer

/// `thumbs serve`: the thumbnail HTTP service (see `ThumbsServer`).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve thumbnails over HTTP from allowed origins (and a media root), with caching, coalescing and limits."
    )

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port).")
    var port: Int = 8080

    @Option(name: .customLong("allow-origin"), help: "An http(s) URL prefix, or s3://bucket/ with a key prefix, that url= may start with (repeatable; s3:// objects are read with the AWS_* environment).")
    var allowOrigins: [String] = []

    @Option(name: .customLong("signing-key-file"), help: "A file whose bytes are the HMAC-SHA256 key every request's sig= must be made with.")
    var signingKeyFile: String?

    @Option(name: .customLong("cache-size-mb"), help: "Memory for thumbnails kept by the service, in MiB.")
    var cacheSizeMB: Int = 64

    @Option(name: .customLong("max-decodes"), help: "Pictures made at once, each holding its decoder and frames until encoded: what bounds memory (default: one per core).")
    var maxDecodes: Int?

    @Option(name: .customLong("max-queue"), help: "Requests waiting for a decode before the service answers 503.")
    var maxQueue: Int = 64

    @Option(name: .customLong("media-root"), help: "A directory whose movies path= may name.")
    var mediaRoot: String?

    @Option(name: .customLong("page-url"), help: "A movie URL the page at / lists, besides the media root's (repeatable).")
    var pageURLs: [String] = []

    @Option(help: "Seconds a request may take before it is answered 504.")
    var deadline: Double = 30

    @Option(name: .customLong("idle-timeout"),
            help: "Seconds a connection may wait for a whole request header, from its opening or its previous answer; then it is closed.")
    var idleTimeout: Double = 30

    @Option(name: .customLong("max-connections"), help: "Client connections open at once; one more is closed when accepted.")
    var maxConnections: Int = 512

    @Option(name: .customLong("forward-header"), help: "A request header passed on to origins (repeatable); none by default.")
    var forwardHeaders: [String] = []

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be within 0...65535") }
        guard cacheSizeMB >= 0, maxQueue >= 0, maxDecodes.map({ $0 >= 1 }) ?? true, maxConnections >= 1 else {
            throw ValidationError("--cache-size-mb and --max-queue must be 0 or more, --max-decodes and --max-connections 1 or more")
        }
        guard !allowOrigins.isEmpty || mediaRoot != nil else {
            throw ValidationError("give at least one --allow-origin or a --media-root: otherwise there is nothing to serve")
        }
    }

    func run() async throws {
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.cacheBytes = cacheSizeMB << 20
        if let maxDecodes { configuration.maximumConcurrentDecodes = maxDecodes }
        configuration.maximumQueue = maxQueue
        configuration.mediaRoot = mediaRoot
        configuration.pageURLs = pageURLs
        configuration.requestDeadline = deadline
        configuration.idleTimeout = idleTimeout
        configuration.maximumConnections = maxConnections
        configuration.forwardedHeaders = Set(forwardHeaders.map { $0.lowercased() })
        do {
            configuration.allowedOrigins = try allowOrigins.map { text throws(ServerError) in try OriginPrefix(text) }
            if let signingKeyFile {
                let key: Data
                do {
                    key = try Data(contentsOf: URL(fileURLWithPath: signingKeyFile))
                } catch {
                    printError("thumbs: --signing-key-file \(signingKeyFile): \(fileFailureReason(error))")
                    throw ExitCode.ioError
                }
                guard !key.isEmpty else { throw ValidationError("--signing-key-file \(signingKeyFile) is empty") }
                configuration.signingKey = Array(key)
            }
            let server = try ThumbsServer(configuration: configuration)
            var logger = Logger(label: "thumbs")
            logger.logLevel = .info
            try await server.run(logger: logger)
        } catch let error as ServerError {
            throw ValidationError(error.detail)
        }
    }
}
