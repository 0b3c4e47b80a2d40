import Foundation
import NIOHTTP1

/// An Amazon SQS queue (or an SQS-compatible one), spoken to in SQS's JSON protocol (`X-Amz-Target:
/// AmazonSQS.<Action>`, `application/x-amz-json-1.0`) with requests signed by AWS Signature Version 4 for `sqs`, no
/// SDK: only what a worker calls (`ReceiveMessage` by long polling, `DeleteMessage`, `ChangeMessageVisibility`).
/// Errors are `FetchError`s naming the queue and SQS's own error type, never a credential.
public struct SQSQueue: Sendable {
    /// The queue's URL (`https://sqs.us-east-1.amazonaws.com/123456789012/thumbnails`, or a compatible server's).
    public let url: String
    /// The region requests are signed for, and the credentials (`S3Configuration`'s: the AWS tools' environment).
    public let configuration: S3Configuration
    /// Timeouts, retries.
    public let options: HTTPFetchOptions
    /// The client the requests go through.
    public let client: RangeFetchClient
    /// Where the actions are posted: the queue URL's scheme and authority.
    let endpoint: String

    /// The queue at `url`; `options`' read timeout must exceed the long poll (default: 30 s against SQS's 20).
    /// - Throws: `FetchError` `unsupportedURL` when `url` is not an http(s) URL with a host.
    public init(url: String, configuration: S3Configuration = S3Configuration(), options: HTTPFetchOptions = HTTPFetchOptions(),
                client: RangeFetchClient? = nil) throws {
        guard HTTPByteSource.isHTTP(url), let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            throw FetchError(.unsupportedURL, url: url, "not an http or https queue url")
        }
        self.url = url
        self.configuration = configuration
        self.options = options
        self.client = client ?? RangeFetchClient.shared(for: options)
        endpoint = "\(components.scheme ?? "https")://\(host)" + (components.port.map { ":\($0)" } ?? "") + "/"
    }

    /// A message received.
    public struct Message: Sendable, Equatable {
        /// SQS's ID of the message.
        public var id: String
        /// What deletes it or changes its visibility, for this receipt.
        public var receiptHandle: String
        /// Its body.
        public var body: String
        /// How many times it has been received, this one included (`ApproximateReceiveCount`).
        public var receiveCount: Int?
        /// When it was sent (`SentTimestamp`).
        public var sentAt: Date?
    }

    /// Up to `maximum` (1...10) messages, waiting up to `waitSeconds` (0...20) for one; invisible to other receivers
    /// for `visibilitySeconds` (nil: the queue's own timeout).
    /// - Throws: `FetchError`.
    public func receive(maximum: Int = 10, waitSeconds: Int = 20, visibilitySeconds: Int? = nil) async throws -> [Message] {
        var request: [String: Any] = ["QueueUrl": url, "MaxNumberOfMessages": min(10, max(1, maximum)),
                                      "WaitTimeSeconds": min(20, max(0, waitSeconds)),
                                      "MessageSystemAttributeNames": ["ApproximateReceiveCount", "SentTimestamp"],
                                      "AttributeNames": ["ApproximateReceiveCount", "SentTimestamp"]]
        if let visibilitySeconds { request["VisibilityTimeout"] = max(0, visibilitySeconds) }
        let answer = try await call("ReceiveMessage", request)
        guard let messages = answer["Messages"] else { return [] }
        guard let list = messages as? [[String: Any]] else {
            throw FetchError(.invalidResponse, url: url, "ReceiveMessage: Messages is not a list")
        }
        return list.compactMap { item in
            guard let id = item["MessageId"] as? String, let handle = item["ReceiptHandle"] as? String else { return nil }
            let attributes = item["Attributes"] as? [String: String] ?? [:]
            return Message(id: id, receiptHandle: handle, body: item["Body"] as? String ?? "",
                           receiveCount: attributes["ApproximateReceiveCount"].flatMap { Int($0) },
                           sentAt: attributes["SentTimestamp"].flatMap { Double($0) }.map { Date(timeIntervalSince1970: $0 / 1000) })
        }
    }

    /// Deletes the message `receiptHandle` names.
    /// - Throws: `FetchError`.
    public func delete(_ receiptHandle: String) async throws {
        _ = try await call("DeleteMessage", ["QueueUrl": url, "ReceiptHandle": receiptHandle])
    }

    /// Keeps the message `receiptHandle` names invisible for `seconds` from now (0: visible again at once).
    /// - Throws: `FetchError`.
    public func changeVisibility(_ receiptHandle: String, seconds: Int) async throws {
        _ = try await call("ChangeMessageVisibility", ["QueueUrl": url, "ReceiptHandle": receiptHandle,
                                                       "VisibilityTimeout": min(43_200, max(0, seconds))])
    }

    /// Posts `action` with `parameters` as JSON; the answer's object.
    private func call(_ action: String, _ parameters: [String: Any]) async throws -> [String: Any] {
        let body = [UInt8](try JSONSerialization.data(withJSONObject: parameters, options: [.sortedKeys]))
        let requests = AWSServiceRequests(client: client, options: options, credentials: configuration.credentials,
                                          region: configuration.region, service: "sqs", reason: Self.reason)
        let (_, answer) = try await requests.send(.POST, url: endpoint, name: "\(url) (\(action))",
                                                  headers: [("Content-Type", "application/x-amz-json-1.0"),
                                                            ("X-Amz-Target", "AmazonSQS.\(action)")],
                                                  body: body)
        guard !answer.isEmpty else { return [:] }
        guard let object = try? JSONSerialization.jsonObject(with: Data(answer)) as? [String: Any] else {
            throw FetchError(.invalidResponse, url: url, "\(action): the answer is not a JSON object")
        }
        return object
    }

    /// SQS's error type and message where a failed answer's body has them (`__type`, `message`).
    @Sendable static func reason(_ body: [UInt8]) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.prefix(64 << 10))) as? [String: Any],
              let type = object["__type"] as? String else { return nil }
        let name = type.split(separator: "#").last.map(String.init) ?? type
        let message = (object["message"] ?? object["Message"]) as? String
        return name + (message.map { ": \($0)" } ?? "")
    }
}
