import Foundation

/// What a batch remembers beside its outputs (`.thumbs-batch.jsonl` in the output directory): for each output, the
/// input it was made from (its name, and a digest of its identity: credentials and other headers are not written),
/// that input's version (a file's size and modification time, a URL's ETag or Last-Modified) and the options' key. A
/// later batch skips an output whose entry matches the input's version now and its own key.
///
/// One JSON line is appended per change, so a batch stopped at any point keeps what it made: before an output is
/// replaced its entry is voided (a line with no version), and the new entry follows once the output is whole. On
/// reading, the last line for an output wins and a line cut short is ignored. The entries are held in memory (one
/// small value an output).
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
        for line in data.split(separator: UInt8(ascii: "\n")) {
            if let entry = try? decoder.decode(Entry.self, from: Data(line)) { entries[entry.output] = entry }
        }
    }

    /// The record of `output`, if any (a voided one has an empty version).
    func entry(for output: String) -> Entry? {
        entries[output]
    }

    /// Voids `output`'s entry, before the output is replaced: a batch stopped before `record(_:)` skips it no more.
    /// - Throws: `ThumbnailError` `writeFailed` when the line cannot be written.
    func void(_ output: String) throws(ThumbnailError) {
        guard entries[output] != nil else { return }
        try record(Entry(output: output, input: "", identity: "", version: "", key: ""))
    }

    /// Remembers `entry`, appending its line to the file (made when missing).
    /// - Throws: `ThumbnailError` `writeFailed` when the line cannot be written.
    func record(_ entry: Entry) throws(ThumbnailError) {
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
        entries[entry.output] = entry
    }
}
