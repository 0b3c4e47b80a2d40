import Foundation
import RangeFetch
import RangeFetchTestSupport
import Testing

/// A queue of a real SQS-compatible server (moto, checking every Signature Version 4), filled by boto3 as a producer
/// would: what is sent is received with its receive count, stays invisible while received, comes back after a
/// visibility of 0, and is gone once deleted; a message received too often moves to the dead-letter queue.
@Suite(.enabled(if: MotoServer.isInstalled, "moto is installed by scripts/install-deps.sh"), .timeLimit(.minutes(2)))
struct SQSQueueTests {
    static func queue(_ moto: MotoServer, deadLetterAfter: Int? = nil) async throws -> (SQSQueue, MotoServer.CreatedQueue) {
        var arguments = ["create", "q-\(UUID().uuidString.prefix(8))"]
        if let deadLetterAfter { arguments += ["--dead-letter-after", String(deadLetterAfter)] }
        let made = try await moto.sqs(arguments, as: MotoServer.CreatedQueue.self)
        let configuration = S3Configuration(endpoint: moto.endpoint, credentials: AWSCredentials(
            accessKeyID: moto.accessKeyID, secretAccessKey: moto.secretAccessKey))
        return (try SQSQueue(url: made.url, configuration: configuration), made)
    }

    @Test func messagesAreReceivedHiddenReturnedAndDeleted() async throws {
        let moto = try #require(try await MotoServer.guarded.value)
        let (queue, made) = try await Self.queue(moto)
        let bodies = (0 ..< 12).map { #"{"input": "s3://media/clip \#($0).mp4"}"# }
        _ = try await moto.sqs(["send", made.url] + bodies, as: [String: Int].self)
        var received: [SQSQueue.Message] = []
        while received.count < 12 {
            let batch = try await queue.receive(maximum: 10, waitSeconds: 1)
            #expect(batch.count <= 10)
            if batch.isEmpty { break }
            received += batch
        }
        #expect(Set(received.map(\.body)) == Set(bodies))
        #expect(received.allSatisfy { $0.receiveCount == 1 && $0.sentAt != nil })
        #expect(try await moto.sqs(["count", made.url], as: MotoServer.QueueCounts.self) == MotoServer.QueueCounts(visible: 0, inFlight: 12))
        // One handed back at once, one kept hidden longer, the rest deleted.
        try await queue.changeVisibility(received[0].receiptHandle, seconds: 0)
        try await queue.changeVisibility(received[1].receiptHandle, seconds: 600)
        for message in received.dropFirst(2) { try await queue.delete(message.receiptHandle) }
        let again = try await queue.receive(maximum: 10, waitSeconds: 1)
        #expect(again.map(\.body) == [received[0].body] && again.first?.receiveCount == 2)
        #expect(try await moto.sqs(["count", made.url], as: MotoServer.QueueCounts.self) == MotoServer.QueueCounts(visible: 0, inFlight: 2))
    }

    @Test func aMessageReceivedTooOftenGoesToTheDeadLetterQueue() async throws {
        let moto = try #require(try await MotoServer.guarded.value)
        let (queue, made) = try await Self.queue(moto, deadLetterAfter: 2)
        _ = try await moto.sqs(["send", made.url, "poison"], as: [String: Int].self)
        for _ in 0 ..< 2 {
            let message = try #require(try await queue.receive(maximum: 1, waitSeconds: 1).first)
            try await queue.changeVisibility(message.receiptHandle, seconds: 0)
        }
        #expect(try await queue.receive(maximum: 1, waitSeconds: 1).isEmpty)
        let dead = try await moto.sqs(["count", try #require(made.deadLetterUrl)], as: MotoServer.QueueCounts.self)
        #expect(dead.visible == 1)
    }

    @Test func aWrongSecretIsRefusedWithoutShowingIt() async throws {
        let moto = try #require(try await MotoServer.guarded.value)
        let (_, made) = try await Self.queue(moto)
        let queue = try SQSQueue(url: made.url, configuration: S3Configuration(endpoint: moto.endpoint, credentials: AWSCredentials(
            accessKeyID: moto.accessKeyID, secretAccessKey: "not-the-secret")))
        await #expect { try await queue.receive(waitSeconds: 0) } throws: { error in
            guard let error = error as? FetchError else { return false }
            return (error.code == .forbidden || error.code == .clientError) && !"\(error)".contains("not-the-secret")
        }
    }
}
