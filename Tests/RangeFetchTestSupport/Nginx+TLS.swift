import Foundation
import MP4BoxTestSupport

extension Nginx {
    /// nginx serving `root` over HTTPS with HTTP/2 (ALPN `h2`), as CDNs and Google Cloud Storage answer, with a
    /// certificate for 127.0.0.1 made here with openssl (`certificatePath`, for a client to trust) and a log of each
    /// request's target, protocol and connection (`protocolLog`). Nil when nginx is not installed.
    public static func tls(root: String) throws -> Nginx? {
        try Nginx { port, directory in
            _ = try? CapturedRun.waiting(URL(fileURLWithPath: "/usr/bin/openssl"), [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", directory + "/key.pem", "-out", directory + "/cert.pem", "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"])
            return """
            types { video/mp4 mp4; }
            log_format protocol '$request_uri $server_protocol $connection $status $body_bytes_sent';
            server {
                listen 127.0.0.1:\(port) ssl http2;
                ssl_certificate \(directory)/cert.pem;
                ssl_certificate_key \(directory)/key.pem;
                root \(root);
                access_log \(directory)/logs/protocol.log protocol;
            }
            """
        }
    }

    /// The certificate an HTTPS nginx (`tls(root:)`) presents, PEM.
    public var certificatePath: String { directory + "/cert.pem" }

    /// The https URL of `name` under the root.
    public func httpsURL(_ name: String) -> String { "https://127.0.0.1:\(port)/\(name)" }

    /// One request an HTTPS nginx logged: its target, protocol (`HTTP/2.0`), connection number, status and body bytes.
    public struct ProtocolLogLine: Sendable, Equatable {
        public var target: String
        public var protocolName: String
        public var connection: Int
        public var status: Int
        public var bytes: Int
    }

    /// What an HTTPS nginx (`tls(root:)`) logged, in order.
    public var protocolLog: [ProtocolLogLine] {
        let text = (try? String(contentsOfFile: directory + "/logs/protocol.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 5, let connection = Int(fields[2]), let status = Int(fields[3]), let bytes = Int(fields[4]) else {
                return nil
            }
            return ProtocolLogLine(target: String(fields[0]), protocolName: String(fields[1]), connection: connection,
                                   status: status, bytes: bytes)
        }
    }
}
