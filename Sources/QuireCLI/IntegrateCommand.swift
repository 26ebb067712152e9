import ArgumentParser
import FoundationEssentials
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
            build under /usr/local with `make install`, or pass --no-thumbnailer.
            """,
        subcommands: [Install.self, Uninstall.self, Status.self])

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
                       previewer: PreviewerRegistration.Choice = .never) -> IntegrationInstaller {
            if system {
                return IntegrationInstaller(scope: .systemWide(prefix: (destdir ?? "") + prefix),
                                            executable: prefix + "/bin/quire", includeThumbnailer: includeThumbnailer,
                                            previewer: previewer)
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
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "quire"
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
                                                   previewer: previewer ? .always : .ifUnclaimed)
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

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Show which integration files are installed.")
        @OptionGroup var location: Location

        func run() throws {
            let statuses = location.installer.status()
            let width = statuses.map(\.state.rawValue.count).max() ?? 0
            for status in statuses {
                let state = Terminal.padded(status.state.rawValue, to: width)
                Terminal.out("\(state)  \(status.path)  (\(status.purpose))\n")
            }
            if statuses.contains(where: { $0.state != .installed }) { throw ExitCode(1) }
        }
    }
}
