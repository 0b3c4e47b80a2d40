import Foundation

extension String {
    /// Percent-encoded for a query value (everything but unreserved characters), as a URL parameter's value.
    public var queryEncoded: String {
        addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? self
    }
}
