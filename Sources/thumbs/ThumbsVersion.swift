import Thumbs

/// What `thumbs --version` prints: the package's version and commit, then every C library linked with the version it
/// reports at run time, one per line, for bug reports.
enum ThumbsVersion {
    /// The package's version: raised when a release is tagged; the commit says exactly what was built.
    static let package = "0.4.0-dev"

    static var text: String {
        (["thumbs \(package) (commit \(buildCommit))"] + LinkedLibrary.all.map(\.description)).joined(separator: "\n")
    }
}
