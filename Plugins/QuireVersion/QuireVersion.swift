import Foundation
import PackagePlugin

/// Writes `QuireBuildVersion.string`, the version `quire --version` prints, from
/// `scripts/version.sh` (git describe in Debian's spelling), so that the binary and the package
/// `make deb` builds from it carry one version. The command runs again when HEAD moves (a
/// commit, a checkout) or the script changes.
@main
struct QuireVersion: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let package = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "QuireBuildVersion.swift")
        let script = package.appending(path: "scripts/version.sh")
        let write = """
            set -e
            version=$(/bin/sh "$1" "$2")
            printf '// Written by Plugins/QuireVersion from scripts/version.sh.\\nenum QuireBuildVersion {\\n    static let string = "%s"\\n}\\n' "$version" > "$3.new"
            mv -f "$3.new" "$3"
            """
        var inputs = [script]
        if let git = Self.gitDirectory(package) {
            // HEAD (a checkout), git's log of it (every commit, reset or checkout) and the branch
            // it names (loose or packed), those that exist: a missing input would fail the build.
            var candidates = [git.appending(path: "HEAD"), git.appending(path: "logs/HEAD")]
            let common = (try? String(contentsOf: git.appending(path: "commondir"), encoding: .utf8))
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                .map { $0.hasPrefix("/") ? URL(filePath: $0) : git.appending(path: $0) } ?? git
            if let head = try? String(contentsOf: git.appending(path: "HEAD"), encoding: .utf8), head.hasPrefix("ref: ") {
                let ref = head.dropFirst("ref: ".count).trimmingCharacters(in: .whitespacesAndNewlines)
                candidates += [common.appending(path: ref), common.appending(path: "packed-refs")]
            }
            inputs += candidates.filter { FileManager.default.fileExists(atPath: $0.path(percentEncoded: false)) }
        }
        return [.buildCommand(displayName: "Quire's version from scripts/version.sh",
                              executable: URL(filePath: "/bin/sh"),
                              arguments: ["-c", write, "quire-version", script.path(percentEncoded: false),
                                          package.path(percentEncoded: false), output.path(percentEncoded: false)],
                              inputFiles: inputs, outputFiles: [output])]
    }

    /// The repository's git directory: `.git`, or where a worktree's `.git` file points.
    static func gitDirectory(_ package: URL) -> URL? {
        let dotGit = package.appending(path: ".git")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dotGit.path(percentEncoded: false), isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue { return dotGit }
        guard let text = try? String(contentsOf: dotGit, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("gitdir: ") }) else { return nil }
        let path = String(line.dropFirst("gitdir: ".count)).trimmingCharacters(in: .whitespaces)
        return path.hasPrefix("/") ? URL(filePath: path) : package.appending(path: path)
    }
}
