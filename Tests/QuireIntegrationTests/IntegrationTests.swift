import Foundation
import QuireIntegration
import QuireTestSupport
import Testing

@Suite("File-manager integration files")
struct IntegrationTests {
    func installer(_ dir: TemporaryDirectory) -> IntegrationInstaller {
        IntegrationInstaller(scope: .user, executable: "/opt/quire dir/bin/quire",
                             environment: ["HOME": dir.path, "XDG_DATA_HOME": dir.file("share")])
    }

    func allFiles(under root: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return walker.compactMap { $0 as? String }.filter { item in
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: root + "/" + item, isDirectory: &isDirectory)
            return !isDirectory.boolValue
        }.sorted()
    }

    @Test func installThenUninstallLeavesNothingBehind() throws {
        let dir = TemporaryDirectory()
        let share = dir.file("share")
        try FileManager.default.createDirectory(atPath: share + "/applications", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: share + "/applications/other.desktop", contents: Data("x".utf8))
        let before = allFiles(under: share)

        let installed = try installer(dir).install(dryRun: false)
        #expect(installed.allSatisfy { $0.action == .written })
        #expect(allFiles(under: share).count == before.count + installed.count + 1)  // + manifest
        #expect(installer(dir).status().allSatisfy { $0.state == .installed })
        // Installing again changes nothing.
        #expect(try installer(dir).install(dryRun: false).allSatisfy { $0.action == .unchanged })

        let removed = try installer(dir).uninstall(dryRun: false)
        #expect(removed.count == installed.count)
        #expect(removed.allSatisfy { $0.action == .removed })
        #expect(allFiles(under: share) == before)
        // Directories Quire created are gone too; the user's own stay.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: share)
        #expect(leftovers == ["applications"])
    }

    /// A system-wide install (the Debian package: `integrate install --system --packaged`)
    /// under `dir/usr`, seen per user through XDG_DATA_DIRS.
    func systemAndUser(_ dir: TemporaryDirectory) -> (system: IntegrationInstaller, user: IntegrationInstaller) {
        let quire = "/opt/quire dir/bin/quire"
        let system = IntegrationInstaller(scope: .systemWide(prefix: dir.file("usr")), executable: quire,
                                          environment: ["HOME": dir.path], packaged: true)
        let user = IntegrationInstaller(scope: .user, executable: quire,
                                        environment: ["HOME": dir.path, "XDG_DATA_HOME": dir.file("share"),
                                                      "XDG_DATA_DIRS": dir.file("usr/share")])
        return (system, user)
    }

    @Test func packagedInstallShipsNoManifestNoFontConfigurationAndNoPreviewer() throws {
        let dir = TemporaryDirectory()
        let changes = try systemAndUser(dir).system.install(dryRun: false)
        #expect(!changes.isEmpty && changes.allSatisfy { $0.action == .written })
        let files = allFiles(under: dir.file("usr/share"))
        #expect(!files.contains("quire/installed-files"), "the package manager tracks the files: \(files)")
        #expect(!files.contains("quire/fonts.conf") && !files.contains { $0.hasPrefix("quire/fontconfig-cache") },
                "the font configuration depends on the machine: postinst writes it")
        #expect(!files.contains("dbus-1/services/org.gnome.NautilusPreviewer.service"), "the previewer stays per user")
        #expect(!files.contains { $0.hasPrefix("nautilus/") }, "Nautilus scripts are per user")
        let id = DesktopApplication.id
        #expect(files.contains("applications/\(id).desktop") && files.contains("icons/hicolor/scalable/apps/\(id).svg")
                && files.contains("metainfo/\(id).metainfo.xml") && files.contains("thumbnailers/quire.thumbnailer"), "\(files)")
        // Open With → Quire: `quire look` on the previewed types (e-mail left out).
        let entry = try String(contentsOfFile: dir.file("usr/share/applications/\(id).desktop"), encoding: .utf8)
        #expect(entry.contains("Exec=\"/opt/quire dir/bin/quire\" look -- %F\n"), "\(entry)")
        let types = try #require(entry.split(separator: "\n").first { $0.hasPrefix("MimeType=") })
        #expect(types.contains(";application/pdf;") && types.contains(";text/plain;") && !types.contains("message/"))
        // Uninstall finds no manifest: it removes none of the package's files.
        #expect(try systemAndUser(dir).system.uninstall(dryRun: false).isEmpty)
        #expect(allFiles(under: dir.file("usr/share")) == files)
    }

    @Test func perUserInstallWritesNoSecondCopyOfASystemWideInstall() throws {
        let dir = TemporaryDirectory()
        let (system, user) = systemAndUser(dir)
        // First per user alone, then the package arrives, then `integrate install` again.
        let alone = try user.install(dryRun: false)
        #expect(alone.allSatisfy { $0.action == .written })
        _ = try system.install(dryRun: false)
        let again = try user.install(dryRun: false)
        let provided = again.filter { $0.action == .systemWide }
        #expect(provided.contains { $0.path == dir.file("usr/share/thumbnailers/quire.thumbnailer") }, "\(again)")
        #expect(provided.allSatisfy { $0.path.hasPrefix(dir.file("usr/share/")) })
        // The earlier per-user copies of those files are removed: one copy of each.
        #expect(again.filter { $0.action == .removed }.count == provided.count, "\(again)")
        let userFiles = allFiles(under: dir.file("share"))
        #expect(userFiles.sorted() == ["nautilus/scripts/Print with Quire", "nautilus/scripts/Quick Look with Quire",
                                       "quire/installed-files"], "\(userFiles)")
        // status counts them as there; a fresh install writes only the per-user files.
        #expect(user.status().allSatisfy { $0.state == .installed || $0.state == .systemWide })
        #expect(user.status().filter { $0.state == .systemWide }.count == provided.count)
        #expect(try user.install(dryRun: false).allSatisfy { $0.action == .unchanged || $0.action == .systemWide })
        // A system file that differs (another quire's) is no reason to skip: the user's copy is written.
        let thumbnailer = dir.file("usr/share/thumbnailers/quire.thumbnailer")
        try "[Thumbnailer Entry]\nExec=/elsewhere/quire thumbnail -s %s %u %o\n".write(toFile: thumbnailer, atomically: true, encoding: .utf8)
        #expect(try user.install(dryRun: false).contains { $0.path == dir.file("share/thumbnailers/quire.thumbnailer") && $0.action == .written })
        _ = try user.uninstall(dryRun: false)
        #expect(allFiles(under: dir.file("share")).isEmpty)
    }

    @Test func dryRunWritesNothing() throws {
        let dir = TemporaryDirectory()
        let changes = try installer(dir).install(dryRun: true)
        #expect(!changes.isEmpty)
        #expect(allFiles(under: dir.path).isEmpty)
    }

    @Test func uninstallKeepsFilesTheUserEdited() throws {
        let dir = TemporaryDirectory()
        _ = try installer(dir).install(dryRun: false)
        let edited = dir.file("share/nemo/actions/quire-print.nemo_action")
        try "[Nemo Action]\nName=Mine\n".write(toFile: edited, atomically: true, encoding: .utf8)
        #expect(installer(dir).status().first { $0.path == edited }?.state == .modified)
        let changes = try installer(dir).uninstall(dryRun: false)
        #expect(changes.first { $0.path == edited }?.action == .keptModified)
        #expect(FileManager.default.fileExists(atPath: edited))
    }

    @Test func thumbnailerFileFollowsTheSpecAndTheTypeLayer() throws {
        let file = try #require(IntegrationFiles.all(executable: "/usr/bin/quire", includeUserOnly: false)
            .first { $0.relativePath == "thumbnailers/quire.thumbnailer" })
        let lines = file.contents.split(separator: "\n").map(String.init)
        #expect(lines.first == "[Thumbnailer Entry]")
        #expect(lines.contains("TryExec=/usr/bin/quire"))
        #expect(lines.contains("Exec=/usr/bin/quire thumbnail -s %s %u %o"))
        let mimeLine = try #require(lines.first { $0.hasPrefix("MimeType=") })
        let types = mimeLine.dropFirst("MimeType=".count).split(separator: ";").map(String.init)
        #expect(types.contains("application/pdf"))
        #expect(types.contains("application/epub+zip"))
        #expect(types.contains("text/x-csrc"))
        // Images and SVG stay with the system's thumbnailers (gdk-pixbuf's, librsvg's).
        for taken in ["image/png", "image/jpeg", "image/svg+xml", "image/gif", "image/webp"] {
            #expect(!types.contains(taken), "\(taken) is claimed")
        }
        // Archives are claimed: their thumbnail is a box with the entry count (no other
        // thumbnailer makes one).
        #expect(types.contains("application/zip") && types.contains("application/x-compressed-tar"))
        #expect(types.contains("font/ttf"))
        #expect(Set(types).count == types.count)
    }

    @Test func execLinesQuoteTheProgramAndNeverHoldFileNames() throws {
        let files = IntegrationFiles.all(executable: "/opt/quire dir/bin/quire", includeUserOnly: true)
        let nemo = try #require(files.first { $0.relativePath.hasSuffix("quire-print.nemo_action") })
        #expect(nemo.contents.contains("Exec=\"/opt/quire dir/bin/quire\" look --print -- %F\n"))
        #expect(nemo.contents.contains("Conditions=exec \"/opt/quire dir/bin/quire\" can-print -- %F;\n"))
        let script = try #require(files.first { $0.relativePath == "nautilus/scripts/Print with Quire" })
        #expect(script.contents.contains("exec '/opt/quire dir/bin/quire' look --print -- \"$@\""))
        let dolphin = try #require(files.first { $0.relativePath == "kio/servicemenus/quire-print.desktop" })
        #expect(dolphin.contents.contains("Exec=\"/opt/quire dir/bin/quire\" look --print -- %F\n"))
        let thunar = try #require(files.first { $0.relativePath == "quire/thunar-uca.xml" })
        #expect(thunar.contents.contains("<command>&quot;/opt/quire dir/bin/quire&quot; look --print -- %F</command>"))
        #expect(script.executable)
    }

    @Test("Dolphin service menus pass desktop-file-validate", arguments: ["quire.desktop", "quire-print.desktop"])
    func desktopFilesValidate(_ name: String) throws {
        let validator = "/usr/bin/desktop-file-validate"
        try #require(FileManager.default.isExecutableFile(atPath: validator), "desktop-file-utils is installed by make test")
        let dir = TemporaryDirectory()
        _ = try installer(dir).install(dryRun: false)
        let path = dir.file("share/kio/servicemenus/\(name)")
        let result = ProcessRunner.run([validator, path])
        // Service menus use KDE's Type=Service; the validator knows only Application, Link and
        // Directory, so it reports Service-only keys. Every other error is a real problem.
        let output = result.standardOutputText + result.standardError
        let errors = output.split(separator: "\n").map(String.init)
            .filter { $0.contains(": error: ") && !$0.contains("the type is \"Service\"") }
        #expect(errors.isEmpty, "\(errors.map { String($0.suffix(200)) })")
        #expect(output.contains("the type is \"Service\""), "the validator ran on the file")
    }
}

/// The generated `.thumbnailer` file, executed the way file managers execute it.
@Suite("Thumbnailer file, run as a file manager runs it")
struct ThumbnailerExecTests {
    /// The Exec line split into arguments (desktop-entry quoting), with field codes replaced.
    static func command(input: String, output: String, size: Int) throws -> [String] {
        let files = IntegrationFiles.all(executable: QuireBinary.path, includeUserOnly: false)
        let thumbnailer = try #require(files.first { $0.relativePath == "thumbnailers/quire.thumbnailer" })
        let exec = try #require(thumbnailer.contents.split(separator: "\n").first { $0.hasPrefix("Exec=") })
        let arguments = DesktopExec.split(String(exec.dropFirst("Exec=".count)))
        // %u: the file:// URI as the file manager's GLib writes it.
        let uri = try GLibReference.answers([(Array(input.utf8), Array(input.utf8), Array("/".utf8))])[0].uri
        return arguments.map {
            switch $0 {
            case "%s": return String(size)
            case "%u": return uri
            case "%i": return input
            case "%o": return output
            default: return $0
            }
        }
    }

    /// Width and height from a PNG's IHDR.
    static func pngSize(_ path: String) -> (Int, Int)? {
        guard let data = FileManager.default.contents(atPath: path), data.count > 24,
              data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
        let bytes = [UInt8](data)
        func be32(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    @Test func execWithPlaceholdersSubstituted() throws {
        let dir = TemporaryDirectory()
        // A name a shell would choke on: the Exec line never passes through one.
        let input = dir.file("report; rm -rf ~ $(x) 'q'.pdf")
        try FileManager.default.copyItem(atPath: Samples.path("document.pdf"), toPath: input)
        let output = dir.file("out.png")
        let command = try Self.command(input: input, output: output, size: 128)
        #expect(command.contains("thumbnail"))
        let result = ProcessRunner.run(command, timeout: 30)
        #expect(result.status == 0, "\(result.standardError)")
        let size = try #require(Self.pngSize(output))
        #expect(max(size.0, size.1) == 128)
    }

    @Test("under bubblewrap, as GNOME runs thumbnailers: input at a fixed path, read-only system")
    func execUnderGNOMEStyleSandbox() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap"), "bubblewrap is installed by make test")
        let dir = TemporaryDirectory()
        let output = dir.file("out")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let inside = "/tmp/gnome-desktop-file-to-thumbnail.pdf"
        let command = try Self.command(input: inside, output: "/tmp/out/thumb.png", size: 256)
        let binary = URL(fileURLWithPath: QuireBinary.path).resolvingSymlinksInPath().path
        var sandbox = ["/usr/bin/bwrap", "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc",
                       "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin",
                       "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
                       "--ro-bind", binary, binary,
                       "--bind", output, "/tmp/out",
                       "--ro-bind", Samples.path("document.pdf"), inside,
                       "--unshare-all", "--die-with-parent", "--chdir", "/", "--setenv", "GIO_USE_VFS", "local"]
        // The Swift runtime of a development build lives outside /usr.
        if FileManager.default.fileExists(atPath: "/opt/swift") { sandbox += ["--ro-bind", "/opt/swift", "/opt/swift"] }
        let result = ProcessRunner.run(sandbox + command, timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let size = try #require(Self.pngSize(output + "/thumb.png"))
        #expect(max(size.0, size.1) == 256)
    }
}

/// `quire preview --open`: the preview goes to the default image viewer that GIO picks.
@Suite("Quick Look through the default viewer")
struct PreviewOpenTests {
    /// A desktop session confined to `home`: its own data, config and private runtime directory,
    /// the given system data directories, no session bus.
    static func desktop(_ home: TemporaryDirectory, dataDirectories: String) throws -> [String: String] {
        try FileManager.default.createDirectory(atPath: home.file("runtime"), withIntermediateDirectories: true)
        #expect(chmod(home.file("runtime"), 0o700) == 0)
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = home.path
        env["XDG_DATA_HOME"] = home.file("data")
        env["XDG_CONFIG_HOME"] = home.file("config")
        env["XDG_RUNTIME_DIR"] = home.file("runtime")
        env["XDG_DATA_DIRS"] = dataDirectories
        env.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        return env
    }

    @Test func opensThePreviewWithTheDefaultImageViewer() throws {
        let home = TemporaryDirectory("quire-open")
        let received = home.file("viewer-got")
        // A viewer registered as the default for PNG: it records the file it was given.
        let viewer = home.file("viewer.sh")
        try ExecutableScript.write("#!/bin/sh\ncp \"$1\" '\(received).part' && mv '\(received).part' '\(received)'\n", to: viewer)
        try FileManager.default.createDirectory(atPath: home.file("data/applications"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home.file("config"), withIntermediateDirectories: true)
        try """
            [Desktop Entry]
            Type=Application
            Name=Test viewer
            Exec=\(viewer) %f
            MimeType=image/png;

            """.write(toFile: home.file("data/applications/quire-test-viewer.desktop"), atomically: true, encoding: .utf8)
        try "[Default Applications]\nimage/png=quire-test-viewer.desktop\n"
            .write(toFile: home.file("config/mimeapps.list"), atomically: true, encoding: .utf8)
        let env = try Self.desktop(home, dataDirectories: "/usr/share")

        let result = QuireBinary.run(["preview", "--open", "--size", "300x300", Samples.path("document.pdf")],
                                     environment: env)
        #expect(result.status == 0, "\(result.standardError)")
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: received) && Date() < deadline { usleep(50_000) }
        let size = try #require(ThumbnailerExecTests.pngSize(received))
        #expect(max(size.0, size.1) == 300)
        // The image the viewer got lives in the private runtime directory.
        let previews = try FileManager.default.contentsOfDirectory(atPath: home.file("runtime/quire-preview"))
        #expect(previews.count == 1)
        #expect(previews.first?.hasPrefix("document.pdf-page-1-") == true)
    }

    @Test func noViewerIsAClearError() throws {
        let home = TemporaryDirectory("quire-open-none")
        // The MIME database but no applications at all.
        try FileManager.default.createDirectory(atPath: home.file("share"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: home.file("share/mime"), withDestinationPath: "/usr/share/mime")
        let env = try Self.desktop(home, dataDirectories: home.file("share"))
        let result = QuireBinary.run(["preview", "--open", Samples.path("quadrants.png")], environment: env)
        #expect(result.status == 69)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.contains("no application could open it") == true)
    }

    @Test func openCannotBeCombinedWithAnOutputFile() {
        let result = QuireBinary.run(["preview", "--open", "-o", "/tmp/x.png", Samples.path("quadrants.png")])
        #expect(result.status == 64)
    }
}

/// `quire integrate` and `quire thumbnailer-service` when they cannot do their work.
@Suite("Integration commands on bad ground")
struct IntegrationCommandErrorTests {
    @Test func installIntoAPlaceThatIsNotADirectoryIsOneLineAndStatus73() throws {
        let dir = TemporaryDirectory()
        let notADirectory = dir.file("share")
        FileManager.default.createFile(atPath: notADirectory, contents: Data("x".utf8))
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = dir.path
        env["XDG_DATA_HOME"] = notADirectory
        let result = QuireBinary.run(["integrate", "install", "--no-thumbnailer"], environment: env)
        #expect(result.status == 73)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("quire: \(notADirectory)/") == true, "\(result.errorLines)")
        #expect(FileManager.default.contents(atPath: notADirectory) == Data("x".utf8), "nothing was overwritten")
    }

    @Test func thumbnailerTheSandboxCannotRunIsRefusedWithTheFix() throws {
        // The development build needs the Swift runtime from the toolchain, outside /usr.
        let dir = TemporaryDirectory()
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = dir.path
        env["XDG_DATA_HOME"] = dir.file("share")
        let result = QuireBinary.run(["integrate", "install"], environment: env)
        #expect(result.status == 78)
        #expect(result.errorLines.count == 1)
        let line = result.errorLines.first ?? ""
        #expect(line.hasPrefix("quire: cannot register the thumbnailer: "), "\(line)")
        #expect(line.contains("outside /usr") && line.contains("make install") && line.contains("--no-thumbnailer"), "\(line)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("share")), "nothing was written")

        let rest = QuireBinary.run(["integrate", "install", "--no-thumbnailer"], environment: env)
        #expect(rest.status == 0, "\(rest.standardError)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("share/thumbnailers/quire.thumbnailer")))
        #expect(FileManager.default.fileExists(atPath: dir.file("share/nemo/actions/quire-print.nemo_action")))
    }

    @Test func sandboxCheckReadsTheLoadersAnswer() {
        // /usr/bin/python3 links only libraries under /usr; a program outside /usr is refused.
        #expect(ThumbnailerSandbox.problem(installedPath: "/usr/bin/python3", file: "/usr/bin/python3") == nil)
        let outside = ThumbnailerSandbox.problem(installedPath: "/opt/quire/bin/quire", file: "/usr/bin/python3")
        #expect(outside?.hasPrefix("/opt/quire/bin/quire is outside /usr") == true, "\(outside ?? "nil")")
        // The test runner links the Swift runtime from the toolchain, outside /usr (quire itself
        // may be the static release build, which needs nothing outside /usr).
        let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let library = ThumbnailerSandbox.problem(installedPath: "/usr/bin/quire", file: runner)
        #expect(library?.contains("/libswift") == true && library?.contains("outside /usr") == true, "\(library ?? "nil")")
    }

    @Test func serviceWithoutABusIsOneLineAndStatus69() {
        let result = QuireBinary.run(["thumbnailer-service", "--bus-address", "unix:path=/nonexistent/quire-bus"],
                                     timeout: 20)
        #expect(result.status == 69)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("quire: cannot connect to the D-Bus session bus") == true,
                "\(result.errorLines)")
    }

    @Test func uninstallWhenNothingIsInstalledSaysSo() throws {
        let dir = TemporaryDirectory()
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = dir.path
        env["XDG_DATA_HOME"] = dir.file("share")
        let result = QuireBinary.run(["integrate", "uninstall"], environment: env)
        #expect(result.status == 0)
        #expect(result.standardOutputText.hasPrefix("nothing to remove"))
    }
}
