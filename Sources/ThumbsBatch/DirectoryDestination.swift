import Foundation

/// A batch's outputs in a local directory (made when missing): each written whole or not at all (`AtomicOutput`), and
/// recorded in the directory's ledger (`BatchLedger`).
public struct DirectoryDestination: BatchDestination {
    /// The directory.
    public let directory: URL
    private let ledger: BatchLedger

    /// The destination `directory`, its ledger read when there is one.
    public init(directory: URL) {
        self.directory = directory
        ledger = BatchLedger(directory: directory)
    }

    public func record(of output: String, companionFolder: String?) async throws -> BatchRecord? {
        let files = [output] + (companionFolder.map { [$0] } ?? [])
        guard files.allSatisfy({ FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }),
              let entry = await ledger.entry(for: output) else { return nil }
        return BatchRecord(input: entry.input, identity: entry.identity, version: entry.version, key: entry.key)
    }

    public func void(_ output: String) async throws {
        try await ledger.void(output)
    }

    public func writeFolder(_ folder: String, _ fill: (URL) async throws -> Void) async throws {
        try await AtomicOutput.writeFolder(at: directory.appendingPathComponent(folder), fill)
    }

    public func write(_ bytes: [UInt8], to output: String, contentType: String, record: BatchRecord?) async throws {
        try AtomicOutput.write(bytes, to: directory.appendingPathComponent(output))
        if let record {
            try await ledger.record(BatchLedger.Entry(output: output, input: record.input, identity: record.identity,
                                                      version: record.version, key: record.key))
        }
    }
}
