import Foundation

/// The JSON files the fixture scripts write (expectations, references), decoded once: a file that cannot be read
/// stops the tests that use it, naming the file.
public enum FixtureJSON {
    /// `url`'s JSON as `T`.
    public static func decode<T: Decodable>(_ type: T.Type, at url: URL) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
        } catch {
            fatalError("\(url.path): \(error)")
        }
    }
}
