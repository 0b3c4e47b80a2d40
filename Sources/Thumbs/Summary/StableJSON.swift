#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON the command line prints and the service answers: keys sorted, indented, slashes not escaped, so the same
/// value is always the same bytes.
public enum StableJSON {
    /// `value` as stable JSON.
    public static func encode(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }
}
