/// An AWS access key: what `AWSSignatureV4` signs with. Its description names the key ID alone, so a credential
/// printed by mistake shows no secret.
public struct AWSCredentials: Sendable, Equatable, CustomStringConvertible {
    /// The access key ID (`AKIA...`, or what an S3-compatible store issued).
    public var accessKeyID: String
    /// The secret access key.
    public var secretAccessKey: String
    /// The session token of temporary credentials, sent as `x-amz-security-token`.
    public var sessionToken: String?

    /// A key.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// The key from `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`; nil unless both of the
    /// first two are set and not empty.
    public init?(environment: [String: String]) {
        guard let id = environment["AWS_ACCESS_KEY_ID"], !id.isEmpty,
              let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty else { return nil }
        let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        self.init(accessKeyID: id, secretAccessKey: secret, sessionToken: token)
    }

    /// The key ID, never the secret or the token.
    public var description: String { "AWSCredentials(\(accessKeyID))" }
}
