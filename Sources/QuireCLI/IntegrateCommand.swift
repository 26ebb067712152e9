import ArgumentParser
import FoundationEssentials
import QuireSystem
import QuireIntegration

struct IntegrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "integrate",
        abstract: "Install Quire into file managers: thumbnailer, context actions, service menus.",
        discussion: """
            Writes a freedesktop thumbnailer file (the MIME types are every type this build can \
            thumbnail except raster images and SVG, which the system's own thumbnailers keep) and \
            the font configuration its sandbox needs, Nemo actions ("Print with Quire" appears only when `quire can-print` \
            says printing can work; "Quick Look"), a Dolphin service menu, a Thunar custom-action \
            snippet and, per user, Nautilus scripts. A manifest records what was written, and \
            uninstall removes exactly that (files you edited are kept). \
            GNOME runs thumbnailers in a sandbox that shows only /usr: install refuses to register \
            a thumbnailer whose program or libraries lie outside it (exit 78); install a release \
            build under /usr/local with `make install`, or pass --no-thumbnailer. \
            Per user, a file that a system-wide install (the Debian package, `make install`) \
            already provides as this quire would write it is not written a second time.
            """,
        subcommands: [Install.self, Uninstall.self, Status.self, SandboxFonts.self])

    struct Location: ParsableArguments {
        @Flag(name: .long, help: "Install for the current user under $XDG_DATA_HOME (default).")
        var user = false

        @Flag(name: .long, help: "Install for everyone under PREFIX/share.")
        var system = false

        @Option(name: .long, help: ArgumentHelp("Prefix for --system (where quire is installed).", valueName: "dir"))
        var prefix = "/usr/local"

        @Option(name: .long, help: ArgumentHelp("Staging root prepended to every path written with --system (packaging).", valueName: "dir"))
        var destdir: String?

        func validate() throws {
            if user && system { throw ValidationError("Choose one of --user and --system.") }
        }

        /// How the installed files invoke quire.
        var executable: String { system ? prefix + "/bin/quire" : Self.currentExecutable }

        var installer: IntegrationInstaller { installer() }

        func installer(includeThumbnailer: Bool = true,
                       previewer: PreviewerRegistration.Choice = .never, packaged: Bool = false) -> IntegrationInstaller {
            if system {
                return IntegrationInstaller(scope: .systemWide(prefix: (destdir ?? "") + prefix),
                                            executable: prefix + "/bin/quire", includeThumbnailer: includeThumbnailer,
                                            previewer: previewer, packaged: packaged)
            }
            return IntegrationInstaller(scope: .user, executable: Self.currentExecutable, includeThumbnailer: includeThumbnailer,
                                        previewer: previewer)
        }

        /// The program the integration files run, and where that file is now (under DESTDIR
        /// when staging).
        var program: (installedPath: String, file: String) {
            if system { return (prefix + "/bin/quire", (destdir ?? "") + prefix + "/bin/quire") }
            return (Self.currentExecutable, Self.currentExecutable)
        }

        /// The absolute path of the running `quire`, so a user install works without PATH.
        static var currentExecutable: String {
            ProcessControl.ownExecutable
        }
    }

    static func report(_ changes: [IntegrationInstaller.Change], dryRun: Bool) {
        for change in changes {
            let verb: String
            switch change.action {
            case .written: verb = dryRun ? "would write" : "wrote"
            case .unchanged: verb = "up to date"
            case .removed: verb = dryRun ? "would remove" : "removed"
            case .keptModified: verb = "kept (edited since install)"
            case .missing: verb = "already gone"
            case .keptForeign: verb = "kept (not Quire's, left alone)"
            case .systemWide: verb = "provided system-wide"
            }
            Terminal.out("\(verb): \(change.path)\n")
        }
    }

    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "install", abstract: "Write the integration files.")
        @OptionGroup var location: Location
        @Flag(name: .long, help: "Say what would be written without writing.") var dryRun = false
        @Flag(name: .long, help: ArgumentHelp(
            "Make Quire the previewer Nautilus calls on Space (org.gnome.NautilusPreviewer) even when another one, such as GNOME Sushi, provides it.",
            discussion: "Without it, Quire's D-Bus activation file is installed only when no other previewer provides the name. A file Quire did not write is never replaced."))
        var previewer = false
        @Flag(name: .long, help: "Install everything but the thumbnailer (for a quire that GNOME's thumbnail sandbox cannot run).")
        var noThumbnailer = false
        @Flag(name: .long, help: ArgumentHelp(
            "With --system: stage the files a distribution package ships (make deb).",
            discussion: "No manifest (the package manager removes the files), no previewer file (a per-user choice), and no font configuration for the thumbnail sandbox, which depends on the machine's fonts: the package runs `quire integrate sandbox-fonts` on the machine."))
        var packaged = false

        func validate() throws {
            if packaged && !location.system { throw ValidationError("--packaged goes with --system.") }
            if packaged && previewer { throw ValidationError("--packaged installs no previewer: Nautilus's Space stays a per-user choice.") }
        }

        func run() throws {
            // A thumbnailer GNOME's sandbox cannot start fails every thumbnail of its types and
            // hides the system's working thumbnailers: refuse it, before writing anything.
            if !noThumbnailer {
                let program = location.program
                if let problem = ThumbnailerSandbox.problem(installedPath: program.installedPath, file: program.file) {
                    Terminal.error("cannot register the thumbnailer: \(problem); install a release build under /usr/local "
                                   + "(sudo make install) and run its `quire integrate`, or pass --no-thumbnailer")
                    throw ExitStatus.configuration.exitCode
                }
            }
            do {
                let installer = location.installer(includeThumbnailer: !noThumbnailer,
                                                   previewer: previewer ? .always : .ifUnclaimed, packaged: packaged)
                let changes = try installer.install(dryRun: dryRun)
                IntegrateCommand.report(changes, dryRun: dryRun)
                let own = installer.dataDirectory + "/" + PreviewerRegistration.relativePath
                if installer.installsPreviewer, changes.contains(where: { $0.path == own && $0.action != .keptForeign }) {
                    let shadowed = installer.previewerProviders.isEmpty ? ""
                        : " (instead of \(installer.previewerProviders.joined(separator: ", ")))"
                    Terminal.out("previewer: \(PreviewerRegistration.busName) is Quire's window\(shadowed)\n")
                } else if let other = installer.previewerProviders.first ?? (installer.installsPreviewer ? own : nil) {
                    Terminal.out("previewer: \(PreviewerRegistration.busName) is provided by \(other); --previewer makes Quire the previewer\n")
                }
            } catch {
                Terminal.error(error.description)
                throw ExitStatus.cannotCreate.exitCode
            }
        }
    }

    struct Uninstall: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "uninstall", abstract: "Remove exactly the files install wrote.")
        @OptionGroup var location: Location
        @Flag(name: .long, help: "Say what would be removed without removing.") var dryRun = false

        func run() throws {
            do {
                let changes = try location.installer.uninstall(dryRun: dryRun)
                if changes.isEmpty { Terminal.out("nothing to remove: Quire's integration is not installed here\n") }
                IntegrateCommand.report(changes, dryRun: dryRun)
            } catch {
                Terminal.error(error.description)
                throw ExitStatus.cannotCreate.exitCode
            }
        }
    }

    struct SandboxFonts: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sandbox-fonts",
            abstract: "Write the font configuration and font cache GNOME's thumbnail sandbox needs, under PREFIX/share/quire.",
            discussion: """
                The sandbox hides /etc/fonts and the system's font cache: quire reads \
                PREFIX/share/quire/fonts.conf there, which names this machine's font rules by \
                their paths under /usr, and a cache built beside it. `integrate install --system` \
                writes both; the Debian package, which cannot ship them, runs this after it is \
                installed and whenever fonts are installed or removed, and removes both with \
                itself.
                """)
        @Option(name: .long, help: ArgumentHelp("Where quire is installed (PREFIX/bin/quire).", valueName: "dir"))
        var prefix = "/usr/local"

        func run() throws {
            do {
                IntegrateCommand.report(try IntegrationInstaller.writeSandboxFonts(prefix: prefix), dryRun: false)
            } catch {
                Terminal.error(error.description)
                throw ExitStatus.cannotCreate.exitCode
            }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show which integration files are installed, and who answers Nautilus's Space.",
            discussion: """
                Lists each integration file (installed, outdated, modified or missing), then the \
                previewer: Quire's D-Bus activation file for org.gnome.NautilusPreviewer here \
                (installed, missing, or another previewer's), every .service file that provides \
                the name in the order the session bus searches them (the first is what D-Bus \
                activation starts), and the process that owns the name now. Exit status 1 when \
                an integration file is not installed as this quire would write it (the previewer \
                file counts only once Quire has installed it).
                """)
        @OptionGroup var location: Location
        @Flag(name: .long, help: "Print JSON instead of text.") var json = false

        struct Record: Encodable {
            struct File: Encodable {
                let path: String
                let state: String
                let purpose: String
            }
            let files: [File]
            let previewer: PreviewerStatus
        }

        func run() throws {
            let installer = location.installer
            let statuses = installer.status()
            let previewer = installer.previewerStatus()
            if json {
                let record = Record(files: statuses.map { Record.File(path: $0.path, state: $0.state.rawValue, purpose: $0.purpose) },
                                    previewer: previewer)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                Terminal.out(String(decoding: try encoder.encode(record), as: UTF8.self) + "\n")
            } else {
                let width = max(statuses.map(\.state.rawValue.count).max() ?? 0, previewer.state.rawValue.count)
                for status in statuses {
                    let state = Terminal.padded(status.state.rawValue, to: width)
                    Terminal.out("\(state)  \(status.path)  (\(status.purpose))\n")
                }
                let state = Terminal.padded(previewer.state.rawValue, to: width)
                let what = previewer.state == .foreign ? "another previewer's file, left alone"
                    : "D-Bus activation of Quire's window as the previewer Nautilus calls on Space"
                Terminal.out("\(state)  \(previewer.path)  (\(what))\n")
                for line in Self.previewerLines(previewer) { Terminal.out("previewer: \(line)\n") }
            }
            let previewerFails = [.outdated, .modified].contains(previewer.state)
            if statuses.contains(where: { $0.state != .installed && $0.state != .systemWide }) || previewerFails { throw ExitCode(1) }
        }

        /// Which file activation starts, which others it shadows, and who owns the name now.
        static func previewerLines(_ status: PreviewerStatus) -> [String] {
            var lines: [String] = []
            let name = status.busName
            if let first = status.activatedFrom {
                func who(_ provider: PreviewerRegistration.Provider) -> String {
                    provider.isQuire ? "Quire's window" : "not Quire: " + (provider.exec ?? "no Exec line")
                }
                lines.append("\(name) is started from \(first.path) (\(who(first)))")
                for other in status.providers.dropFirst() {
                    lines.append("also provided by \(other.path) (\(who(other)); not used while the first is there)")
                }
            } else {
                lines.append("no .service file provides \(name): Space in Nautilus previews nothing (quire integrate install --previewer)")
            }
            if !status.busReachable {
                lines.append("no session bus to ask who owns \(name) now")
            } else if let owner = status.owner {
                let process = owner.pid.map { "pid \($0)" } ?? "unknown process"
                // The program and its first argument (--json has the whole command line).
                let command = owner.command.map { line -> String in
                    let words = line.split(separator: " ")
                    return ": " + words.prefix(2).joined(separator: " ") + (words.count > 2 ? " …" : "")
                } ?? ""
                lines.append("\(name) is owned now by \(owner.uniqueName), \(process)\(command)")
            } else {
                lines.append("\(name) has no owner now (started on demand)")
            }
            return lines
        }
    }
}
