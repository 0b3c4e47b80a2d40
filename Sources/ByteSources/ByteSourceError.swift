/// What an error thrown by a byte source says about the bytes, whatever carried them (file, HTTP, your own).
///
/// Callers that keep what they learnt from a source (an index, a picture) look for this, not for a transport's
/// error type.
public protocol ByteSourceError: Error {
    /// The bytes are no longer the version read before (another validator, length or file): whatever was learnt
    /// from the earlier version must be read again.
    var isResourceChanged: Bool { get }
}
