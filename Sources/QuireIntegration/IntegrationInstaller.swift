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
            /// Per user: a system-wide install (the Debian package, `make install`) already
            /// provides the file as this quire would write it, at `path`: no second copy.
            case systemWide = "system-wide"
        }
        public let path: String
        public let action: Action
    }

    /// The state of one file.
    public struct FileStatus: Sendable, Equatable {
        /// `systemWide`: not installed per user, because a system-wide install provides it as
        /// this quire would write it (`path` is that file).
        public enum State: String, Sendable { case installed, outdated, modified, missing, systemWide = "system-wide" }
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
    /// Staged for a distribution package: see ``init(scope:executable:includeThumbnailer:environment:previewer:packaged:)``.
    public let packaged: Bool
    /// Per user: the system data directories (`$XDG_DATA_DIRS`) where a system-wide install's
    /// files are looked for, so as not to write a second copy of them.
    let systemDataDirectories: [String]
    private let environment: [String: String]

    /// - Parameters:
    ///   - includeThumbnailer: whether to install the `.thumbnailer` file; check
    ///     ``ThumbnailerSandbox/problem(installedPath:file:)`` first.
    ///   - packaged: system-wide, the files a distribution package ships (`make deb`): no
    ///     manifest (the package manager tracks them and removes them), no previewer (taking over
    ///     Nautilus's Space stays a per-user choice), and no font configuration for the
    ///     thumbnail sandbox, which depends on the machine's fonts: the package's maintainer
    ///     scripts write it on the machine (``writeSandboxFonts(prefix:)``).
    public init(scope: Scope, executable: String, includeThumbnailer: Bool = true,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                previewer: PreviewerRegistration.Choice = .never, packaged: Bool = false) {
        self.scope = scope
        self.environment = environment
        previewerFile = PreviewerRegistration.file(executable: DesktopEntry.quote(executable))
        switch scope {
        case .user:
            let home = DirectoryPath.home(environment["HOME"])
            let userData = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
            dataDirectory = userData
            files = IntegrationFiles.all(executable: executable, includeUserOnly: true, includeThumbnailer: includeThumbnailer)
                + Self.previewerFile(previewer, executable, dataDirectory, environment)
            self.packaged = false
            systemDataDirectories = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
                .split(separator: ":").map(String.init).filter { $0.hasPrefix("/") && $0 != userData }
        case .systemWide(let prefix):
            dataDirectory = prefix + "/share"
            let all = IntegrationFiles.all(executable: executable, includeUserOnly: false, includeThumbnailer: includeThumbnailer)
            files = packaged ? all.filter { $0.relativePath != SandboxFontConfig.relativePath }
                : all + Self.previewerFile(previewer, executable, dataDirectory, environment)
            self.packaged = packaged
            systemDataDirectories = []
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

    /// Writes every file (atomically) and the manifest (not when ``packaged``). Per user, a file
    /// that a system-wide install already provides as this quire would write it is not written;
    /// a copy an earlier `install` wrote (unedited) is removed, so there is one.
    public func install(dryRun: Bool) throws(IntegrationError) -> [Change] {
        var changes: [Change] = []
        var manifest = readManifest()
        for file in files {
            let path = absolute(file.relativePath)
            if let system = systemCopy(of: file) {
                if let fingerprint = manifest[file.relativePath], let contents = read(path) {
                    if Self.fingerprint(contents) == fingerprint {
                        if !dryRun {
                            if unlink(path) != 0 && errno != ENOENT {
                                throw IntegrationError(path: path, reason: "cannot remove: \(Errno.current)")
                            }
                            removeEmptyParents(of: path)
                        }
                        manifest[file.relativePath] = nil
                        changes.append(Change(path: path, action: .removed))
                    } else {
                        changes.append(Change(path: path, action: .keptModified))
                    }
                } else if read(path) == nil {
                    manifest[file.relativePath] = nil
                }
                changes.append(Change(path: system, action: .systemWide))
                continue
            }
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
        if !dryRun && !packaged {
            if manifest.isEmpty { unlink(manifestPath); removeEmptyParents(of: manifestPath) } else { try writeManifest(manifest) }
        }
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
            if read(path) == nil, let system = systemCopy(of: file) {
                return FileStatus(path: system, state: .systemWide, purpose: file.purpose)
            }
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

    /// Per user: the file of a system-wide install that has exactly this file's content (and
    /// mode), in the first system data directory that has one. Never the previewer's: making
    /// Quire the previewer stays a per-user choice.
    func systemCopy(of file: IntegrationFile) -> String? {
        guard file.relativePath != PreviewerRegistration.relativePath else { return nil }
        for directory in systemDataDirectories {
            let path = directory + "/" + file.relativePath
            if read(path) == file.contents && isExecutable(path) == file.executable { return path }
        }
        return nil
    }

    /// Writes `PREFIX/share/quire/fonts.conf` for this machine's fonts and builds its font cache:
    /// what GNOME's thumbnail sandbox needs (``SandboxFontConfig``). `install --system` writes
    /// them with the rest; a distribution package, which cannot ship them, runs this from its
    /// maintainer scripts (`quire integrate sandbox-fonts`), and again when fonts change.
    public static func writeSandboxFonts(prefix: String) throws(IntegrationError) -> [Change] {
        let dataDirectory = prefix + "/share"
        let file = IntegrationFiles.sandboxFontConfig(executable: prefix + "/bin/quire")
        let path = dataDirectory + "/" + file.relativePath
        let unchanged = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } == file.contents
        if !unchanged {
            if let failure = DirectoryPath.create(DirectoryPath.parent(of: path)) {
                throw IntegrationError(path: DirectoryPath.parent(of: path), reason: "cannot create directory: \(failure)")
            }
            try replace(path, with: file.contents, permissions: 0o644)
        }
        if let failure = SandboxFontConfig.buildCache(dataDirectory: dataDirectory) {
            throw IntegrationError(path: dataDirectory + "/" + SandboxFontConfig.cacheRelativePath, reason: failure)
        }
        return [Change(path: path, action: unchanged ? .unchanged : .written),
                Change(path: dataDirectory + "/" + SandboxFontConfig.cacheRelativePath, action: .written)]
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
