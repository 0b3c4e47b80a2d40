import Foundation

/// Fields of a process's /proc/<pid>/status: resident and peak memory, threads.
public enum ProcessStatus {
    /// The number in `field` (`VmRSS` and `VmHWM` are in KiB) of process `pid` ("self": this one); nil when the
    /// file or the field cannot be read.
    public static func value(_ field: String, of pid: String = "self") -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return nil }
        return Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "")
    }
}
