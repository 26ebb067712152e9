#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import QuireSystem
import QuireTypes

/// Installs, removes and inspects Quire's integration files under one XDG data directory,
/// keeping a manifest of exactly what it wrote so that `uninstall` removes exactly that.
public struct IntegrationInstaller: Sendable {
    /// Where the files go.
    public enum Scope: Sendable, Equatable {
        /// `$XDG_DATA_HOME` (default `~/.local/share`).
        case user
        /// `PREFIX/share` (default prefix `/usr/local`).
        case systemWide(prefix: String)
    }

    /// What happened (or would happen, in a dry run) to one file.
    public struct Change: Sendable, Equatable {
        public enum Action: String, Sendable {
            case written, unchanged, removed, keptModified = "kept-modified", missing
            /// A file Quire did not write is in the way (a system Sushi's): left as it is.
            case keptForeign = "kept-foreign"
        }
        public let path: String
        public let action: Action
    }

    /// The state of one file.
    public struct FileStatus: Sendable, Equatable {
        public enum State: String, Sendable { case installed, outdated, modified, missing }
        public let path: String
        public let state: State
        public let purpose: String
    }

    public let scope: Scope
    public let dataDirectory: String
    public let files: [IntegrationFile]
    /// Other `.service` files that provide the previewer name (Sushi's), searched as the bus does.
    public let previewerProviders: [String]
    /// Quire's previewer activation file as this quire writes it (installed or not).
    let previewerFile: IntegrationFile
    private let environment: [String: String]

    /// - Parameter includeThumbnailer: whether to install the `.thumbnailer` file; check
    ///   ``ThumbnailerSandbox/problem(installedPath:file:)`` first.
    public init(scope: Scope, executable: String, includeThumbnailer: Bool = true,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                previewer: PreviewerRegistration.Choice = .never) {
        self.scope = scope
        self.environment = environment
        previewerFile = PreviewerRegistration.file(executable: DesktopEntry.quote(executable))
        switch scope {
        case .user:
            let home = DirectoryPath.home(environment["HOME"])
            dataDirectory = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
            files = IntegrationFiles.all(executable: executable, includeUserOnly: true, includeThumbnailer: includeThumbnailer)
                + Self.previewerFile(previewer, executable, dataDirectory, environment)
        case .systemWide(let prefix):
            dataDirectory = prefix + "/share"
            files = IntegrationFiles.all(executable: executable, includeUserOnly: false, includeThumbnailer: includeThumbnailer)
                + Self.previewerFile(previewer, executable, dataDirectory, environment)
        }
        previewerProviders = PreviewerRegistration.otherProviders(
            environment: environment, own: dataDirectory + "/" + PreviewerRegistration.relativePath)
    }

    private static func previewerFile(_ choice: PreviewerRegistration.Choice, _ executable: String, _ dataDirectory: String,
                                      _ environment: [String: String]) -> [IntegrationFile] {
        let others = PreviewerRegistration.otherProviders(
            environment: environment, own: dataDirectory + "/" + PreviewerRegistration.relativePath)
        guard choice == .always || (choice == .ifUnclaimed && others.isEmpty) else { return [] }
        return [PreviewerRegistration.file(executable: DesktopEntry.quote(executable))]
    }

    /// Whether this install provides the previewer name.
    public var installsPreviewer: Bool { files.contains { $0.relativePath == PreviewerRegistration.relativePath } }

    var manifestPath: String { dataDirectory + "/quire/installed-files" }

    func absolute(_ relative: String) -> String { dataDirectory + "/" + relative }

    /// Writes every file (atomically) and the manifest.
    public func install(dryRun: Bool) throws(IntegrationError) -> [Change] {
        var changes: [Change] = []
        var manifest = readManifest()
        for file in files {
            let path = absolute(file.relativePath)
            if read(path) == file.contents && isExecutable(path) == file.executable {
                changes.append(Change(path: path, action: .unchanged))
            } else if file.relativePath == PreviewerRegistration.relativePath, read(path) != nil, manifest[file.relativePath] == nil {
                // Another previewer's file (a system Sushi's under --system): never replaced.
                changes.append(Change(path: path, action: .keptForeign))
                continue
            } else {
                if !dryRun { try write(file, to: path) }
                changes.append(Change(path: path, action: .written))
            }
            manifest[file.relativePath] = Self.fingerprint(file.contents)
        }
        if !dryRun { try writeManifest(manifest) }
        if !dryRun && files.contains(where: { $0.relativePath == SandboxFontConfig.relativePath }),
           let failure = SandboxFontConfig.buildCache(dataDirectory: dataDirectory) {
            throw IntegrationError(path: absolute(SandboxFontConfig.cacheRelativePath), reason: failure)
        }
        return changes
    }

    /// Removes the files listed in the manifest — only those whose content is still what Quire
    /// wrote — then the manifest and any directories left empty.
    public func uninstall(dryRun: Bool) throws(IntegrationError) -> [Change] {
        var changes: [Change] = []
        let manifest = readManifest()
        for (relative, fingerprint) in manifest.sorted(by: { $0.key < $1.key }) {
            let path = absolute(relative)
            guard let contents = read(path) else {
                changes.append(Change(path: path, action: .missing))
                continue
            }
            if Self.fingerprint(contents) != fingerprint {
                changes.append(Change(path: path, action: .keptModified))
                continue
            }
            if !dryRun && unlink(path) != 0 && errno != ENOENT {
                throw IntegrationError(path: path, reason: "cannot remove: \(Errno.current)")
            }
            changes.append(Change(path: path, action: .removed))
            if !dryRun { removeEmptyParents(of: path) }
        }
        if !dryRun {
            if manifest[SandboxFontConfig.relativePath] != nil { SandboxFontConfig.removeCache(dataDirectory: dataDirectory) }
            unlink(manifestPath)
            removeEmptyParents(of: manifestPath)
        }
        return changes
    }

    /// The state of each file Quire would install.
    public func status() -> [FileStatus] {
        let manifest = readManifest()
        return files.map { file in
            let path = absolute(file.relativePath)
            let state: FileStatus.State
            if let contents = read(path) {
                if contents == file.contents {
                    state = .installed
                } else if manifest[file.relativePath] == Self.fingerprint(contents) {
                    state = .outdated
                } else {
                    state = .modified
                }
            } else {
                state = .missing
            }
            return FileStatus(path: path, state: state, purpose: file.purpose)
        }
    }

    /// Quire's previewer file here (installed or not, Quire's or another previewer's), every
    /// provider of the name as the session bus searches them, and who owns the name now.
    public func previewerStatus() -> PreviewerStatus {
        let path = absolute(PreviewerRegistration.relativePath)
        let state: PreviewerStatus.State
        if let contents = read(path) {
            if contents == previewerFile.contents {
                state = .installed
            } else if let fingerprint = readManifest()[PreviewerRegistration.relativePath] {
                state = fingerprint == Self.fingerprint(contents) ? .outdated : .modified
            } else {
                state = contents.contains(" look --service") ? .outdated : .foreign
            }
        } else {
            state = .missing
        }
        let bus = PreviewerStatus.currentOwner(environment: environment)
        return PreviewerStatus(busName: PreviewerRegistration.busName, path: path, state: state,
                               providers: PreviewerRegistration.providers(environment: environment),
                               busReachable: bus.reachable, owner: bus.owner)
    }

    // MARK: Files

    private func read(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    private func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

    private func write(_ file: IntegrationFile, to path: String) throws(IntegrationError) {
        let directory = DirectoryPath.parent(of: path)
        if let failure = DirectoryPath.create(directory) {
            throw IntegrationError(path: directory, reason: "cannot create directory: \(failure)")
        }
        try Self.replace(path, with: file.contents, permissions: file.executable ? 0o755 : 0o644)
    }

    private func readManifest() -> [String: String] {
        guard let text = read(manifestPath) else { return [:] }
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2 { result[String(parts[1])] = String(parts[0]) }
        }
        return result
    }

    private func writeManifest(_ manifest: [String: String]) throws(IntegrationError) {
        let text = "# Files written by `quire integrate install`; `quire integrate uninstall` removes them.\n"
            + manifest.sorted { $0.key < $1.key }.map { "\($0.value)\t\($0.key)" }.joined(separator: "\n") + "\n"
        _ = DirectoryPath.create(DirectoryPath.parent(of: manifestPath))
        try Self.replace(manifestPath, with: text, permissions: 0o644)
    }

    /// Writes `text` so that readers see either the old or the new content, never a part (made
    /// durable: these files outlive the process that writes them).
    private static func replace(_ path: String, with text: String, permissions: FilePermissions) throws(IntegrationError) {
        do {
            try atomicReplace(path: path, contents: Array(text.utf8), permissions: permissions, durable: true)
        } catch {
            throw IntegrationError(path: path, reason: error.step == .create
                                       ? "cannot create a file here: \(error.errno)" : "cannot write: \(error.errno)")
        }
    }

    /// Removes now-empty directories between `path` and the data directory.
    private func removeEmptyParents(of path: String) {
        var directory = DirectoryPath.parent(of: path)
        while directory.count > dataDirectory.count && directory.hasPrefix(dataDirectory + "/") {
            if rmdir(directory) != 0 { break }
            directory = DirectoryPath.parent(of: directory)
        }
    }

    /// FNV-1a 64-bit of the content, to notice files a user edited (not a security measure).
    static func fingerprint(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}

/// An integration file could not be written or removed.
public struct IntegrationError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}
