import Foundation
import RangeFetch

/// What one queue message asks a worker for (`thumbs worker`): an S3 event notification's created objects (its keys
/// form-decoded: `+` is a space), S3's test event (nothing), or a plain job (`{"input": "<URL or s3://bucket/key>",
/// "output": "<s3:// prefix>"}`, the output optional).
enum QueueMessage: Equatable {
    /// One picture to make.
    struct Job: Equatable {
        /// The movie: `s3://bucket/key`, or an http(s) URL.
        var input: String
        /// Where its picture goes, when the message says (an `s3://` prefix); nil: the worker's own.
        var output: String?
    }

    /// Objects to make pictures of.
    case jobs([Job])
    /// `s3:TestEvent`, sent when a bucket's notifications are set up: nothing to do.
    case test
    /// Nothing a worker reads (why, for the log).
    case unreadable(String)

    /// The message with body `body`.
    init(body: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else {
            self = .unreadable("the body is not a JSON object")
            return
        }
        if object["Event"] as? String == "s3:TestEvent" {
            self = .test
            return
        }
        if let records = object["Records"] as? [[String: Any]] {
            var jobs: [Job] = []
            for record in records {
                guard let name = record["eventName"] as? String, name.hasPrefix("ObjectCreated:"),
                      let s3 = record["s3"] as? [String: Any], let bucket = (s3["bucket"] as? [String: Any])?["name"] as? String,
                      let encoded = (s3["object"] as? [String: Any])?["key"] as? String,
                      let key = S3Location.percentDecoded(encoded, plusIsSpace: true), !key.isEmpty else { continue }
                jobs.append(Job(input: S3Location.scheme + bucket + "/" + key, output: nil))
            }
            self = jobs.isEmpty ? .unreadable("no ObjectCreated record") : .jobs(jobs)
            return
        }
        if let input = object["input"] as? String, !input.isEmpty {
            self = .jobs([Job(input: input, output: object["output"] as? String)])
            return
        }
        self = .unreadable("neither S3 event records nor a job's input")
    }
}
