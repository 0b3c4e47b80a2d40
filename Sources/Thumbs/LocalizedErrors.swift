#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Matroska

// `localizedDescription` comes from Foundation's `LocalizedError`. ByteSources, MP4Box and FrameDecode use nothing but
// the standard library (and C), so that the parser can be embedded and fuzzed alone: their errors get the conformance
// here, where a user of thumbnails meets them (`import Thumbs` re-exports all three). Used alone, they are
// `CustomStringConvertible`.

extension ReadError: LocalizedError {
    /// The description, for `localizedDescription`.
    public var errorDescription: String? { description }
}

extension MP4Error: LocalizedError {
    /// The description, for `localizedDescription`.
    public var errorDescription: String? { description }
}

extension DecodeError: LocalizedError {
    /// The description, for `localizedDescription`.
    public var errorDescription: String? { description }
}

extension MatroskaError: LocalizedError {
    /// The description, for `localizedDescription`.
    public var errorDescription: String? { description }
}
