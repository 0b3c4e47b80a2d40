import Foundation
import RangeFetch
import Thumbs
import ThumbsBatch

/// The movies `thumbs batch` is given, each with the thumbnail path it gets under the output directory: a directory's
/// movies (walked through its subdirectories, hidden ones left out) at their paths relative to it; an object store's
/// prefix (`s3://bucket/prefix/`, listed before: `objectListings`) likewise, its movie keys at their paths relative to
/// the prefix; a file or a URL named directly (or in a `--from` list), at its name; each with the format's extension in place of its own.
/// Where two would get the same path, each of them keeps its own extension before the format's (`a.mp4.png`,
/// `a.mov.png`), and where those are still alike (URLs that differ in their query), a digest of the input too. An
/// input given twice is listed once; a path that names nothing is listed (its movie fails as unreadable).
struct BatchInputs {
    /// One movie: the path or URL as given, and its thumbnail's path relative to the output directory.
    struct Entry: Equatable {
        var input: String
        var output: String
    }

    /// File extensions a directory's movies have (any letter case): MP4, QuickTime, 3GPP, Matroska and WebM.
    static let movieExtensions: Set<String> = ["mp4", "m4v", "mov", "qt", "3gp", "3g2", "mj2", "mkv", "webm", "mk3d"]

    /// The movies, in the order given (a directory's sorted by path).
    private(set) var entries: [Entry] = []

    /// Lists `arguments` and the lines of each `lists` file (`-`: standard input; empty lines and lines starting with
    /// `#` left out), the outputs with the extension `formatExtension`; an argument `objectListings` has keys for is
    /// a prefix, and those keys (relative to it) are its movies.
    /// - Throws: `ListingError` when a list or a directory cannot be read.
    init(arguments: [String], lists: [String], formatExtension: String, objectListings: [String: [String]] = [:]) throws {
        var named: [(input: String, stem: String, ownExtension: String)] = []
        var seen: Set<String> = []
        func add(_ input: String, stem: String, ownExtension: String) {
            if seen.insert(input).inserted { named.append((input, stem, ownExtension)) }
        }
        for argument in arguments + (try lists.flatMap(Self.lines(of:))) {
            if let keys = objectListings[argument] {
                for relative in keys where Self.movieExtensions.contains((relative as NSString).pathExtension.lowercased()) {
                    add(argument + relative, stem: Self.stem(of: relative), ownExtension: Self.ownExtension(of: relative))
                }
                continue
            }
            if InputOptions.isURL(argument) {
                let path = URLComponents(string: argument)?.path ?? ""
                let last = (path as NSString).lastPathComponent
                let name = last.isEmpty || last == "/" ? "index" : last
                add(argument, stem: Self.stem(of: name), ownExtension: Self.ownExtension(of: name))
                continue
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue {
                for relative in try Self.movies(in: argument) {
                    add((argument as NSString).appendingPathComponent(relative), stem: Self.stem(of: relative),
                        ownExtension: Self.ownExtension(of: relative))
                }
            } else {
                let name = (argument as NSString).lastPathComponent
                add(argument, stem: Self.stem(of: name), ownExtension: Self.ownExtension(of: name))
            }
        }
        var byStem: [String: Int] = [:]
        for entry in named { byStem[entry.stem, default: 0] += 1 }
        let withOwn = named.map { entry in
            (byStem[entry.stem] ?? 0) > 1 && !entry.ownExtension.isEmpty ? "\(entry.stem).\(entry.ownExtension)" : entry.stem
        }
        var byName: [String: Int] = [:]
        for name in withOwn { byName[name, default: 0] += 1 }
        for (entry, name) in zip(named, withOwn) {
            let unique = (byName[name] ?? 0) > 1 ? "\(name)-\(BatchItem.digest(entry.input))" : name
            entries.append(Entry(input: entry.input, output: "\(unique).\(formatExtension)"))
        }
    }

    /// `path` without its extension.
    private static func stem(of path: String) -> String {
        (path as NSString).deletingPathExtension
    }

    /// `path`'s extension, as written.
    private static func ownExtension(of path: String) -> String {
        (path as NSString).pathExtension
    }

    /// The movie files under `directory`, as paths relative to it, sorted; hidden files and folders left out.
    private static func movies(in directory: String) throws -> [String] {
        let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey],
                                                          options: [.skipsHiddenFiles]) else {
            throw ListingError(message: "\(directory): cannot be read")
        }
        var found: [String] = []
        for case let url as URL in walker {
            guard movieExtensions.contains(url.pathExtension.lowercased()),
                  (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.standardizedFileURL.path
            found.append(String(path.dropFirst(root.path.count).drop { $0 == "/" }))
        }
        return found.sorted()
    }

    /// Whether `argument` names an object store's prefix to list rather than one object: `s3://bucket/` or
    /// `s3://bucket/prefix/`.
    static func isObjectPrefix(_ argument: String) -> Bool {
        guard S3Location.isS3(argument) else { return false }
        let rest = argument.dropFirst(S3Location.scheme.count)
        return argument.hasSuffix("/") || !rest.contains("/")
    }

    /// The entries of a list file (`-`: standard input).
    static func lines(of list: String) throws -> [String] {
        let data: Data
        do {
            data = list == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: list))
        } catch {
            throw ListingError(message: "\(list): \(fileFailureReason(error))")
        }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// Why the inputs could not be listed: one line for standard error.
    struct ListingError: Error {
        var message: String
    }
}
