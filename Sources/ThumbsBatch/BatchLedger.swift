import Foundation
import Thumbs

/// What a batch remembers beside its outputs (`.thumbs-batch.jsonl` in the output directory): for each output, the
/// input it was made from (its name, and a digest of its identity: credentials and other headers are not written),
/// that input's version (a file's size and modification time, a URL's ETag or Last-Modified) and the options' key. A
/// later batch skips an output whose entry matches the input's version now and its own key.
///
/// One JSON line is appended per change, so a batch stopped at any point keeps what it made: before an output is
/// replaced its entry is voided (a line with no version), and the new entry follows once the output is whole. On
/// reading, the last line for an output wins and a line cut short is ignored; a file of more than twice as many lines
/// as live entries (and 64 more) is written again with those alone, at a temporary name renamed into place. The
/// entries are held in memory (one small value an output).
actor BatchLedger {
    /// One output's record.
    struct Entry: Codable, Equatable {
        var output: String
        var input: String
        var identity: String
        var version: String
        var key: String
    }

    /// The file's name in the output directory.
    static let fileName = ".thumbs-batch.jsonl"

    private let file: URL
    private var entries: [String: Entry] = [:]
    /// Whether the file's last line lacks its newline (a batch killed while writing it): the next line starts a new one.
    private var endsMidLine = false

    /// The ledger of `directory`, read when there is one.
    init(directory: URL) {
        file = directory.appendingPathComponent(Self.fileName)
        guard let data = try? Data(contentsOf: file) else { return }
        endsMidLine = data.last.map { $0 != UInt8(ascii: "\n") } ?? false
        let decoder = JSONDecoder()
        let lines = data.split(separator: UInt8(ascii: "\n"))
        for line in lines {
            if let entry = try? decoder.decode(Entry.self, from: Data(line)) { entries[entry.output] = entry }
        }
        entries = entries.filter { !$0.value.version.isEmpty }
        if lines.count > 2 * entries.count + 64, Self.write(entries, to: file) { endsMidLine = false }
    }

    /// Writes `file` again with `entries` alone (sorted by output); whether it was (else it is left as it was).
    private static func write(_ entries: [String: Entry], to file: URL) -> Bool {
        let encoder = JSONEncoder()
        var bytes: [UInt8] = []
        for output in entries.keys.sorted() {
            guard let entry = entries[output], let line = try? encoder.encode(entry) else { continue }
            bytes += line
            bytes.append(UInt8(ascii: "\n"))
        }
        return (try? AtomicOutput.write(bytes, to: file)) != nil
    }

    /// The record of `output`, if any (none once voided).
    func entry(for output: String) -> Entry? {
        entries[output]
    }

    /// Voids `output`'s entry, before the output is replaced: a batch stopped before `record(_:)` skips it no more.
    /// - Throws: `ThumbnailError` `writeFailed` when the line cannot be written.
    func void(_ output: String) throws(ThumbnailError) {
        guard entries[output] != nil else { return }
        try append(Entry(output: output, input: "", identity: "", version: "", key: ""))
        entries[output] = nil
    }

    /// Remembers `entry`, appending its line to the file (made when missing).
    /// - Throws: `ThumbnailError` `writeFailed` when the line cannot be written.
    func record(_ entry: Entry) throws(ThumbnailError) {
        try append(entry)
        entries[entry.output] = entry
    }

    /// Appends `entry`'s line to the file (made when missing), on a line of its own.
    private func append(_ entry: Entry) throws(ThumbnailError) {
        var line = Data(endsMidLine ? [UInt8(ascii: "\n")] : [])
        do {
            line.append(try JSONEncoder().encode(entry))
        } catch {
            throw AtomicOutput.failure(error, writing: file)
        }
        line.append(UInt8(ascii: "\n"))
        let descriptor = open(file.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw AtomicOutput.failure(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO), writing: file)
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: line)
        } catch {
            throw AtomicOutput.failure(error, writing: file)
        }
        endsMidLine = false
    }
}
