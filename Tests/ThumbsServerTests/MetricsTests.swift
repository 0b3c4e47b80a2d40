import Foundation
import MP4BoxTestSupport
import RangeFetchTestSupport
import Testing
@testable import ThumbsServer

/// `/metrics` in the Prometheus text format, its origin counts checked against the origin's own log.
@Suite struct MetricsTests {
    /// One sample of the exposition: a name, its labels, its value.
    struct Sample {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    /// The samples of a Prometheus text exposition (comments skipped).
    static func samples(_ text: String) throws -> [Sample] {
        try text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.map { line in
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                throw CocoaError(.coderReadCorrupt)
            }
            let series = line[..<space]
            guard let open = series.firstIndex(of: "{") else { return Sample(name: String(series), labels: [:], value: value) }
            var labels: [String: String] = [:]
            for pair in series[series.index(after: open)..<series.index(before: series.endIndex)].split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                labels[String(parts[0])] = String(parts[1].dropFirst().dropLast())
            }
            return Sample(name: String(series[..<open]), labels: labels, value: value)
        }
    }

    static func value(_ samples: [Sample], _ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { sample in sample.name == name && labels.allSatisfy { key, value in sample.labels[key] == value } }?.value
    }

    @Test func requestsCachesOriginTrafficAndTheQueueAreCounted() async throws {
        try await RunningServer.withOrigin { server, origin in
            let path = "/thumbnail.png?url=\(origin.url("/media/a.mp4").queryEncoded)&width=64"
            #expect(try await server.get(path).status == 200)
            #expect(try await server.get(path).status == 200)
            #expect(try await server.get(path + "&width=1").status == 400)
            let track = "/storyboard.vtt?url=\(origin.url("/media/a.mp4").queryEncoded)&interval=1&width=32"
            #expect(try await server.get(track).status == 200)
            #expect(try await server.get(track).status == 200)
            #expect(try await server.get("/nowhere").status == 404)
            let answer = try await server.get("/metrics")
            #expect(answer.status == 200)
            #expect(answer.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
            let samples = try Self.samples(String(decoding: answer.body, as: UTF8.self))
            #expect(Self.value(samples, "thumbs_http_requests_total", ["route": "/thumbnail.png", "status": "200"]) == 2)
            #expect(Self.value(samples, "thumbs_http_requests_total", ["route": "/thumbnail.png", "status": "400"]) == 1)
            #expect(Self.value(samples, "thumbs_http_requests_total", ["route": "/storyboard.vtt", "status": "200"]) == 2)
            #expect(Self.value(samples, "thumbs_http_requests_total", ["status": "404"]) == 1)
            #expect(Self.value(samples, "thumbs_http_request_duration_seconds_count", ["route": "/thumbnail.png"]) == 3)
            #expect(Self.value(samples, "thumbs_cache_hits_total", ["cache": "thumbnail"]) == 1)
            #expect(Self.value(samples, "thumbs_cache_misses_total", ["cache": "thumbnail"]) == 1)
            #expect(Self.value(samples, "thumbs_cache_hits_total", ["cache": "storyboard"]) == 1)
            #expect(Self.value(samples, "thumbs_cache_misses_total", ["cache": "storyboard"]) == 1)
            #expect(Self.value(samples, "thumbs_origin_requests_total") == Double(origin.requestCount))
            #expect(Self.value(samples, "thumbs_origin_bytes_total") == Double(origin.bodyBytes))
            #expect(Self.value(samples, "thumbs_queue_length") == 0)
            #expect(Self.value(samples, "thumbs_work_in_progress") == 0)
        }
    }
}
