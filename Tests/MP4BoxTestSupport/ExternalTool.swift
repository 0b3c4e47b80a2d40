import Foundation

/// A program of the machine's, run to its end as an independent oracle (libavif's `avifdec`, ffmpeg): whether it is
/// installed, and what it prints.
public struct ExternalTool: Sendable {
    /// Its absolute path.
    public var path: String

    /// The tool at `path`.
    public init(_ path: String) { self.path = path }

    /// Whether the tool is installed (a test that needs it is enabled only then).
    public var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Runs the tool with `arguments`; its exit status and what it wrote to standard output and standard error, as one
    /// text.
    public func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
