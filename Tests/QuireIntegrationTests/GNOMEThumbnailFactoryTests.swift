import Foundation
import QuireIntegration
import QuireTestSupport
import Testing

/// `make install` under a prefix inside /usr, then GNOME's own thumbnail factory
/// (gnome-desktop 43's `GnomeDesktop.DesktopThumbnailFactory`, what Nautilus uses, through
/// python3-gi) asked for thumbnails with its bubblewrap sandbox on.
@Suite("GNOME's thumbnail factory runs the installed Quire", .serialized)
struct GNOMEThumbnailFactoryTests {
    /// `make install` into a fresh prefix under /usr/local (GNOME's sandbox shows only /usr);
    /// the caller removes it with ``removeInstall(_:)``.
    static func installUnderUsrLocal(_ name: String) throws -> String {
        var template = Array("/usr/local/\(name).XXXXXX".utf8CString)
        let prefix = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
        let install = ProcessRunner.run(["/usr/bin/make", "-C", Samples.repositoryRoot.path, "install", "PREFIX=\(prefix)"],
                                        timeout: 3600)
        if install.status != 0 { removeInstall(prefix) }
        try #require(install.status == 0, "make install failed: \(install.standardError.suffix(2000))")
        return prefix
    }

    static func removeInstall(_ prefix: String) {
        _ = ProcessRunner.run(["/bin/rm", "-rf", prefix], timeout: 60)
    }

    /// A thumbnailer outside /usr for the MIME type `application/x-quire-sandbox-probe`, in a
    /// data directory under `work` (returned, for XDG_DATA_HOME): only the factory's sandbox
    /// stops it, so its failure shows that the sandbox was on.
    static func writeSandboxProbe(in work: TemporaryDirectory) throws -> String {
        let data = work.file("data")
        try FileManager.default.createDirectory(atPath: data + "/thumbnailers", withIntermediateDirectories: true)
        let probe = work.file("probe-thumbnailer")
        try ExecutableScript.write("#!/bin/sh\nexec /bin/cp \(Samples.path("quadrants.png")) \"$1\"\n", to: probe)
        try "[Thumbnailer Entry]\nExec=\(probe) %o\nMimeType=application/x-quire-sandbox-probe;\n"
            .write(toFile: data + "/thumbnailers/probe.thumbnailer", atomically: true, encoding: .utf8)
        return data
    }

    /// Runs a factory script with the installed prefix's thumbnailers and `data`'s probe
    /// visible, and a private cache and home under `work`.
    static func runFactory(_ arguments: [String], prefix: String, data: String, work: TemporaryDirectory,
                           timeout: Double) -> ProcessRunner.Result {
        var env = ProcessInfo.processInfo.environment
        env["XDG_DATA_DIRS"] = prefix + "/share:/usr/share"
        env["XDG_DATA_HOME"] = data
        env["XDG_CACHE_HOME"] = work.file("cache")
        env["HOME"] = work.path
        return ProcessRunner.run(arguments, environment: env, timeout: timeout)
    }

    /// Asks the factory for one thumbnail per `path MIME-type` argument pair and prints
    /// `OK path width height software` or `FAIL path message`.
    static let factoryScript = """
        import sys, gi
        gi.require_version("GnomeDesktop", "3.0")
        from gi.repository import GnomeDesktop, Gio
        factory = GnomeDesktop.DesktopThumbnailFactory.new(GnomeDesktop.DesktopThumbnailSize.NORMAL)
        arguments = sys.argv[1:]
        for path, mime in zip(arguments[0::2], arguments[1::2]):
            uri = Gio.File.new_for_path(path).get_uri()
            try:
                pixbuf = factory.generate_thumbnail(uri, mime, None)
                print("OK", path, pixbuf.get_width(), pixbuf.get_height(), pixbuf.get_option("tEXt::Software") or "-", flush=True)
            except Exception as error:
                print("FAIL", path, str(error).replace("\\n", " "), flush=True)
        """

    @Test func factoryMakesEveryThumbnailWithQuireInstalledUnderUsr() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap"), "bubblewrap: make test installs it")
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"))
        let work = TemporaryDirectory("quire-gnome")
        let prefix = try Self.installUnderUsrLocal("quire-gnome-test")
        defer { Self.removeInstall(prefix) }
        let quire = prefix + "/bin/quire"
        #expect(ThumbnailerSandbox.problem(installedPath: quire, file: quire) == nil)
        let thumbnailer = try String(contentsOfFile: prefix + "/share/thumbnailers/quire.thumbnailer", encoding: .utf8)
        #expect(thumbnailer.contains("Exec=\(quire) thumbnail -s %s %u %o"))

        // A control that needs the sandbox to fail: a thumbnailer outside /usr.
        let data = try Self.writeSandboxProbe(in: work)
        let script = work.file("factory.py")
        try Self.factoryScript.write(toFile: script, atomically: true, encoding: .utf8)

        // office-report.odt: made by LibreOffice, thumbnailed from the preview image it carries
        // (GNOME's sandbox hides /etc/libreoffice, so LibreOffice itself cannot start there).
        let byQuire = [("document.pdf", "application/pdf"), ("document.odt", "application/vnd.oasis.opendocument.text"),
                       ("office-report.odt", "application/vnd.oasis.opendocument.text"),
                       ("book.epub", "application/epub+zip"), ("document.ps", "application/postscript"),
                       ("notes.txt", "text/plain"), ("fonts/DejaVuSans.ttf", "font/ttf"),
                       ("fonts/collection.ttc", "font/collection"),
                       ("archives/project.tar.gz", "application/x-compressed-tar"),
                       ("media/clip.webm", "video/webm"), ("media/song.mp3", "audio/mpeg")]
        let bySystem = [("format.png", "image/png"), ("photo.jpg", "image/jpeg"), ("drawing.svg", "image/svg+xml")]
        var arguments = ["/usr/bin/python3", script]
        for (name, mime) in byQuire + bySystem { arguments += [Samples.path(name), mime] }
        arguments += [Samples.path("notes.txt"), "application/x-quire-sandbox-probe"]
        let result = Self.runFactory(arguments, prefix: prefix, data: data, work: work, timeout: 300)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutputText.split(separator: "\n").map(String.init)
        #expect(lines.count == byQuire.count + bySystem.count + 1, "\(lines) \(result.standardError)")
        for (index, (name, _)) in (byQuire + bySystem).enumerated() where index < lines.count {
            let fields = lines[index].split(separator: " ").map(String.init)
            #expect(fields.first == "OK", "\(name): \(lines[index])")
            if fields.count >= 5 {
                #expect(max(Int(fields[2]) ?? 0, Int(fields[3]) ?? 0) == 128, "\(name): \(lines[index])")
                let madeByQuire = fields[4] == "Quire"
                #expect(madeByQuire == (index < byQuire.count), "\(name) made by \(fields[4])")
            }
        }
        // The control failed: the factory really ran thumbnailers in its sandbox.
        #expect(lines.last?.hasPrefix("FAIL") == true, "a thumbnailer outside /usr ran: \(lines.last ?? "")")
    }

    /// Asks the factory for one thumbnail per `path MIME-type reference.png` triple and prints
    /// `OK path width height ink difference software` (ink: the share of pixels visibly darker
    /// than white; difference: the mean absolute difference of the RGBA bytes from the
    /// reference, -1 when the sizes differ; software: tEXt::Software, which has spaces) or
    /// `FAIL path message`.
    static let officeFactoryScript = """
        import sys, gi
        gi.require_version("GnomeDesktop", "3.0")
        gi.require_version("GdkPixbuf", "2.0")
        from gi.repository import GnomeDesktop, GdkPixbuf, Gio
        factory = GnomeDesktop.DesktopThumbnailFactory.new(GnomeDesktop.DesktopThumbnailSize.NORMAL)
        def rgba(pixbuf):
            if not pixbuf.get_has_alpha():
                pixbuf = pixbuf.add_alpha(False, 0, 0, 0)
            data, stride, w = pixbuf.get_pixels(), pixbuf.get_rowstride(), pixbuf.get_width()
            return b"".join(data[y * stride : y * stride + w * 4] for y in range(pixbuf.get_height()))
        arguments = sys.argv[1:]
        for path, mime, reference in zip(arguments[0::3], arguments[1::3], arguments[2::3]):
            uri = Gio.File.new_for_path(path).get_uri()
            try:
                pixbuf = factory.generate_thumbnail(uri, mime, None)
            except Exception as error:
                print("FAIL", path, str(error).replace("\\n", " "), flush=True)
                continue
            pixels = rgba(pixbuf)
            ink = sum(1 for i in range(0, len(pixels), 4) if pixels[i + 3] > 128 and pixels[i] + pixels[i + 1] + pixels[i + 2] < 690) / (len(pixels) // 4)
            other = GdkPixbuf.Pixbuf.new_from_file(reference)
            difference = -1
            if (other.get_width(), other.get_height()) == (pixbuf.get_width(), pixbuf.get_height()):
                theirs = rgba(other)
                difference = sum(abs(a - b) for a, b in zip(pixels, theirs)) / len(pixels)
            print("OK", path, pixbuf.get_width(), pixbuf.get_height(), "%.4f" % ink, "%.3f" % difference,
                  pixbuf.get_option("tEXt::Software") or "-", flush=True)
        """

    /// Office files that carry no preview image (a .docx, an .xlsx, a .pptx, a legacy .doc):
    /// inside the factory's sandbox, which hides Debian's /etc/libreoffice, LibreOffice starts
    /// from the packages' configuration under /usr and lays page 1 out — the same pixels as
    /// the same quire makes outside the sandbox, with text on them.
    @Test func factoryLaysOutOfficeFilesWithoutAPreviewImage() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap"), "bubblewrap: make test installs it")
        try #require(FileManager.default.isReadableFile(atPath: "/usr/lib/libreoffice/share/.registry/main.xcd"),
                     "make test installs LibreOffice")
        let work = TemporaryDirectory("quire-gnome-office")
        let prefix = try Self.installUnderUsrLocal("quire-gnome-office")
        defer { Self.removeInstall(prefix) }
        let quire = prefix + "/bin/quire"
        let script = work.file("factory.py")
        try Self.officeFactoryScript.write(toFile: script, atomically: true, encoding: .utf8)

        let files = [("office-report.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
                     ("office-sheet.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
                     ("office-slides.pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
                     ("office-report.doc", "application/msword")]
        var arguments = ["/usr/bin/python3", script]
        for (name, mime) in files {
            // None of them carries a preview image: only LibreOffice can draw them.
            let entries = ProcessRunner.run(["/usr/bin/unzip", "-Z1", Samples.path(name)], timeout: 30).standardOutputText
            #expect(!entries.lowercased().contains("thumbnail"), "\(name) carries a preview image: \(entries)")
            let reference = work.file(name + ".png")
            let outside = ProcessRunner.run([quire, "thumbnail", "-s", "128", Samples.path(name), reference], timeout: 120)
            #expect(outside.status == 0, "\(name) outside the sandbox: \(outside.standardError)")
            arguments += [Samples.path(name), mime, reference]
        }
        // The control: a thumbnailer outside /usr, which only the factory's sandbox stops.
        let data = try Self.writeSandboxProbe(in: work)
        arguments += [Samples.path("notes.txt"), "application/x-quire-sandbox-probe", Samples.path("quadrants.png")]
        let result = Self.runFactory(arguments, prefix: prefix, data: data, work: work, timeout: 600)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutputText.split(separator: "\n").map(String.init)
        #expect(lines.count == files.count + 1, "\(lines) \(result.standardError)")
        #expect(lines.last?.hasPrefix("FAIL") == true, "a thumbnailer outside /usr ran: the factory had no sandbox")
        for (index, (name, _)) in files.enumerated() where index < lines.count {
            let fields = lines[index].split(separator: " ").map(String.init)
            #expect(fields.first == "OK", "\(name): \(lines[index])")
            #expect(fields.count >= 7, "\(name): \(lines[index])")
            guard fields.count >= 7 else { continue }
            #expect(max(Int(fields[2]) ?? 0, Int(fields[3]) ?? 0) == 128, "\(name): \(lines[index])")
            #expect(fields[6] == "Quire", "\(name) made by \(fields[6...].joined(separator: " "))")
            let ink = Double(fields[4]) ?? 0, difference = Double(fields[5]) ?? -1
            // Page 1 of each has text or a table on white: about 0.6 % (the sheet's small
            // numbers) to 19 % (the slide's title bar) of the pixels.
            #expect(ink > 0.003 && ink < 0.6, "\(name): \(ink) of the pixels inked — a blank or black page")
            #expect(difference >= 0 && difference < 2, "\(name): differs from the thumbnail made outside the sandbox by \(difference)")
        }
    }

    @Test("inside the sandbox fontconfig finds its configuration and text uses the same fonts")
    func textInsideTheSandboxMatchesOutside() throws {
        let work = TemporaryDirectory("quire-fonts")
        let prefix = try Self.installUnderUsrLocal("quire-fonts-test")
        defer { Self.removeInstall(prefix) }
        let quire = prefix + "/bin/quire"
        let outside = work.file("outside.png")
        let plain = ProcessRunner.run([quire, "thumbnail", "-s", "256", Samples.path("hello.c"), outside], timeout: 60)
        #expect(plain.status == 0, "\(plain.standardError)")
        let output = work.file("out")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        // gnome-desktop 43's arguments (gnome-desktop-thumbnail-script.c) on a merged-/usr system.
        let inside = "/tmp/gnome-desktop-file-to-thumbnail.c"
        let sandbox = ["/usr/bin/bwrap", "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache",
                       "--symlink", "/usr/bin", "/bin", "--symlink", "/usr/lib64", "/lib64", "--symlink", "/usr/lib", "/lib",
                       "--symlink", "/usr/sbin", "/sbin", "--proc", "/proc", "--dev", "/dev", "--chdir", "/",
                       "--setenv", "GIO_USE_VFS", "local", "--unshare-all", "--die-with-parent",
                       "--bind", output, "/tmp", "--ro-bind", Samples.path("hello.c"), inside]
        let result = ProcessRunner.run(sandbox + [quire, "thumbnail", "-s", "256", inside, "/tmp/inside.png"], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        let a = try #require(FileManager.default.contents(atPath: outside))
        let b = try #require(FileManager.default.contents(atPath: output + "/inside.png"))
        // Same pixels (the tEXt chunks name different paths): compare the image data chunks.
        #expect(Self.imageData(a) == Self.imageData(b), "text drawn inside the sandbox differs from outside")
        #expect(!Self.imageData(a).isEmpty)
    }

    /// The concatenated IDAT chunk payloads of a PNG.
    static func imageData(_ png: Data) -> [UInt8] {
        let bytes = [UInt8](png)
        var result: [UInt8] = []
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            guard offset + 12 + length <= bytes.count else { break }
            if type == "IDAT" { result += bytes[(offset + 8)..<(offset + 8 + length)] }
            offset += 12 + length
        }
        return result
    }
}
