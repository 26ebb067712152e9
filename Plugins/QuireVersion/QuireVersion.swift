import Foundation
import PackagePlugin

/// Writes `QuireBuildVersion.string`, the version `quire --version` prints, from
/// `scripts/version.sh` (git describe in Debian's spelling) before each build, so that the binary
/// and the package `make deb` builds from it carry one version. The file is rewritten only when
/// the version changed: a build at the same commit recompiles nothing.
@main
struct QuireVersion: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "Version")
        let script = context.package.directoryURL.appending(path: "scripts/version.sh")
        let write = """
            set -e
            mkdir -p "$3"
            version=$(/bin/sh "$1" "$2")
            file="$3/QuireBuildVersion.swift"
            printf '// Written by Plugins/QuireVersion from scripts/version.sh.\\nenum QuireBuildVersion {\\n    static let string = "%s"\\n}\\n' "$version" > "$file.new"
            if cmp -s "$file.new" "$file"; then rm -f "$file.new"; else mv -f "$file.new" "$file"; fi
            """
        return [.prebuildCommand(displayName: "Quire's version from scripts/version.sh",
                                 executable: URL(filePath: "/bin/sh"),
                                 arguments: ["-c", write, "quire-version", script.path(percentEncoded: false),
                                             context.package.directoryURL.path(percentEncoded: false),
                                             output.path(percentEncoded: false)],
                                 outputFilesDirectory: output)]
    }
}
