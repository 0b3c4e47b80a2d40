import Foundation
import PackagePlugin

/// Writes `BuildVersion.swift` before each build of the target it is applied to: the commit the package is built from
/// (`git describe --always --dirty` in the package's folder), or "unknown" outside a git checkout. The file is
/// rewritten only when the commit changes, so an unchanged checkout recompiles nothing.
@main
struct BuildVersion: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
        let file = output.appending(path: "BuildVersion.swift")
        let script = """
            mkdir -p "$2"
            commit=$(git -C "$1" describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
            text="/// The commit this binary was built from (\\`git describe --always --dirty\\`), or unknown.
            let buildCommit = \\"$commit\\""
            [ "$(cat "$3" 2>/dev/null)" = "$text" ] || printf '%s\\n' "$text" > "$3"
            """
        return [.prebuildCommand(displayName: "Recording the commit of \(context.package.displayName)",
                                 executable: URL(filePath: "/bin/sh"),
                                 arguments: ["-c", script, "sh", context.package.directoryURL.path, output.path, file.path],
                                 outputFilesDirectory: output)]
    }
}
