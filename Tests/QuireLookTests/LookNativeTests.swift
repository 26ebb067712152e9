import Foundation
import QuireTestSupport
import Testing

/// The window as a GNOME app (issue 42): status pages for what cannot be shown, toasts for
/// "Copied", a footer that matches what is shown, one window size from file to file, small
/// images centred at 1:1, the file type's own icon in colour. Xvfb, AT-SPI and screenshots.
@Suite("quire look window, GNOME look (Xvfb)")
final class LookNativeTests {
    let directory = TemporaryDirectory("quire-look-native")

    func environment(_ bed: WindowTestBed) -> [String: String] {
        bed.environment(ProcessInfo.processInfo.environment,
                        ["XDG_STATE_HOME": directory.file("state"), "XDG_CONFIG_HOME": directory.file("config"),
                         "NO_COLOR": "1", "CUPS_SERVER": "127.0.0.1:1"])
    }

    func look(_ files: [String], _ bed: WindowTestBed) throws -> BackgroundProcess {
        try BackgroundProcess([QuireBinary.path, "look"] + files, environment: environment(bed), directory: directory.path)
    }

    /// Whether the object named `name` is shown (GTK 4.8's AT-SPI gives "visible", not "showing").
    static func showing(_ tree: [WindowTestBed.Accessible], _ name: String) -> Bool {
        tree.contains { $0.name == name && $0.states.contains("visible") }
    }

    static func centreX(_ extents: WindowTestBed.Accessible.Extents) -> Int { extents.x + extents.width / 2 }

    @Test func aFileThatCannotBeShownGetsAStatusPageAndThePasswordFieldIsCentred() throws {
        let bed = try WindowTestBed()
        let viewer = try look([Samples.path("garbage.pdf"), Samples.path("encrypted.pdf")], bed)
        defer { viewer.stop() }
        let window = bed.waitForWindow(named: "^garbage\\.pdf$")
        #expect(window != nil, "\(viewer.errorOutput)")
        var tree = bed.waitForAccessible { Self.showing($0, "Cannot Open “garbage.pdf”") }
        #expect(Self.showing(tree, "Cannot Open “garbage.pdf”"), "a title: \(tree.filter { $0.role == "label" }.map(\.name))")
        #expect(Self.showing(tree, "The file is damaged: it is not a readable PDF."), "a description in plain words: \(tree.filter { $0.role == "label" }.map(\.name))")
        #expect(!tree.contains { $0.name.contains("(PDF document is damaged)") }, "the cause is said once")
        let damaged = try bed.waitForScreenshot("status-damaged", window: window) { $0.darkPixels > 200 }
        // Centred in the window, with margins: the title's middle is the window's middle.
        let title = try #require(tree.first { $0.name == "Cannot Open “garbage.pdf”" }?.extents)
        let frame = try #require(tree.first { $0.role == "frame" }?.extents)
        #expect(abs(Self.centreX(title) - frame.width / 2) < 4, "title \(title) in a window \(frame.width) wide")
        let description = try #require(tree.first { $0.name.hasPrefix("The file is damaged") }?.extents)
        #expect(description.x >= 12 && description.x + description.width <= frame.width - 12, "margins: \(description)")
        #expect(damaged.darkPixels > 200, "the text is drawn")
        #expect(!Self.showing(tree, "Password"), "no password field for a damaged file")
        #expect(!Self.showing(tree, "Zoom In"), "no zoom for a message")

        bed.key("Right")
        #expect(bed.waitForWindow(named: "^encrypted\\.pdf$") != nil)
        tree = bed.waitForAccessible { Self.showing($0, "“encrypted.pdf” Is Password-Protected") && Self.showing($0, "Unlock") }
        #expect(Self.showing(tree, "“encrypted.pdf” Is Password-Protected"), "\(tree.filter { $0.role == "label" }.map(\.name))")
        let heading = try #require(tree.first { $0.name == "“encrypted.pdf” Is Password-Protected" }?.extents)
        let field = try #require(tree.first { $0.role == "password text" && $0.name == "Password" }?.extents)
        let unlock = try #require(tree.first { $0.role == "push button" && $0.name == "Unlock" }?.extents)
        // The field and its button, together, sit centred under the text.
        let rowCentre = (field.x + unlock.x + unlock.width) / 2
        #expect(abs(rowCentre - Self.centreX(heading)) < 6, "field \(field), button \(unlock), title \(heading)")
        #expect(field.y > heading.y, "under the text")
        _ = try bed.waitForScreenshot("status-password", window: window) { $0.darkPixels > 200 }
        bed.type("wrong")
        bed.key("Return")
        tree = bed.waitForAccessible { Self.showing($0, "That password is not correct. Try again.") }
        #expect(Self.showing(tree, "That password is not correct. Try again."))
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    @Test func theFooterHasPageControlsOnlyWithPages() throws {
        let bed = try WindowTestBed()
        let viewer = try look([Samples.path("document.pdf"), Samples.path("hello.c")], bed)
        defer { viewer.stop() }
        let window = bed.waitForWindow(named: "^document\\.pdf$")
        var tree = bed.waitForAccessible { Self.showing($0, "Zoom In") && $0.contains { $0.role == "label" && $0.name == "page 1 of 3" } }
        #expect(Self.showing(tree, "Zoom In") && Self.showing(tree, "Go to Page"), "pages: page and zoom controls")

        // The index sheet: the grid, no page or zoom controls.
        bed.key("ctrl+Up")
        tree = bed.waitForAccessible { $0.contains { $0.name.hasPrefix("hello.c, ") } && !Self.showing($0, "Zoom In") }
        for control in ["Zoom In", "Zoom Out", "Fit Page", "Go to Page", "Previous Page", "Next Page"] {
            #expect(!Self.showing(tree, control), "index sheet: no \(control)")
        }
        _ = try bed.waitForScreenshot("footer-index", window: window) { $0.whitePixels > 1000 }
        bed.key("Escape")
        tree = bed.waitForAccessible { Self.showing($0, "Zoom In") }
        #expect(Self.showing(tree, "Zoom In"), "back on the pages: the controls again")

        // Text: no bar at all (not an empty grey strip).
        bed.key("Right")
        #expect(bed.waitForWindow(named: "^hello\\.c$") != nil)
        tree = bed.waitForAccessible { $0.contains { $0.role == "text" && $0.name == "Text" } && !Self.showing($0, "Zoom In") }
        #expect(!Self.showing(tree, "Zoom In") && !Self.showing(tree, "Go to Page"))
        #expect(!Self.showing(tree, "Page Bar"), "no footer under text: \(tree.filter { $0.name == "Page Bar" })")
        let text = try #require(tree.first { $0.role == "text" && $0.name == "Text" }?.extents)
        let shot = try bed.waitForScreenshot("footer-text", window: window) { $0.darkPixels > 100 }
        #expect(text.y + text.height >= shot.image.height - 16, "the text reaches the window's bottom: \(text) in \(shot.image.height)")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    /// A picture is zoomed, not paged: the footer has the zoom controls and Actual Size, and no
    /// page position or page buttons; a PDF after it has them again.
    @Test func aPictureHasZoomButNoPageControls() throws {
        let bed = try WindowTestBed()
        let viewer = try look([Samples.path("photo.jpg"), Samples.path("document.pdf")], bed)
        defer { viewer.stop() }
        #expect(bed.waitForWindow(named: "^photo\\.jpg$") != nil, "\(viewer.errorOutput)")
        var tree = bed.waitForAccessible { Self.showing($0, "Zoom In") }
        #expect(Self.showing(tree, "Zoom In") && Self.showing(tree, "Zoom Out"), "a picture zooms")
        for control in ["Go to Page", "Previous Page", "Next Page", "Page position"] {
            #expect(!Self.showing(tree, control), "picture: no \(control)")
        }
        #expect(!tree.contains { $0.role == "label" && $0.name == "page 1 of 1" && $0.states.contains("visible") })
        bed.key("Right")
        tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "page 1 of 3" } && Self.showing($0, "Go to Page") }
        #expect(Self.showing(tree, "Go to Page") && Self.showing(tree, "Next Page"), "a PDF pages again")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    @Test func theWindowKeepsItsSizeFromFileToFile() throws {
        let bed = try WindowTestBed()
        let files = ["document.pdf", "hello.c", "format.png", "long.txt", "media/clip.webm", "fonts/DejaVuSans.ttf",
                     "archives/project.tar.gz", "garbage.pdf", "many-glyphs.pdf"]
        let viewer = try look(files.map { Samples.path($0) }, bed)
        defer { viewer.stop() }
        let window = try #require(bed.waitForWindow(named: "^document\\.pdf$"), "\(viewer.errorOutput)")
        _ = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "page 1 of 3" } }
        usleep(300_000)
        let first = try bed.geometry(of: window)
        var sizes = ["document.pdf": "\(first.width)×\(first.height)"]
        for (index, file) in files.enumerated().dropFirst() {
            bed.key("Right")
            let name = (file as NSString).lastPathComponent
            #expect(bed.waitForWindow(named: "^" + NSRegularExpression.escapedPattern(for: name) + "$") != nil, "\(name)")
            _ = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "\(index + 1) of \(files.count)" } }
            usleep(500_000)
            let geometry = try bed.geometry(of: window)
            sizes[name] = "\(geometry.width)×\(geometry.height)"
            #expect(geometry.width == first.width && geometry.height == first.height,
                    "\(name): \(geometry.width)×\(geometry.height), the first file's \(first.width)×\(first.height)")
        }
        _ = try bed.waitForScreenshot("size-last", window: window)
        #expect(Set(sizes.values).count == 1, "\(sizes)")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    /// On a small screen (1024×600) the window fits it, and keeps that size from file to file.
    @Test func onASmallScreenTheWindowFitsTheScreen() throws {
        let bed = try WindowTestBed(screen: (1024, 600))
        let viewer = try look([Samples.path("document.pdf"), Samples.path("hello.c")], bed)
        defer { viewer.stop() }
        let window = try #require(bed.waitForWindow(named: "^document\\.pdf$"), "\(viewer.errorOutput)")
        _ = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "page 1 of 3" } }
        usleep(300_000)
        let first = try bed.geometry(of: window)
        #expect(first.height <= 600 - 30 && first.width <= 1024 - 30, "within the screen: \(first)")
        let shot = try bed.waitForScreenshot("small-screen", window: window) { $0.redPixels > 1000 }
        #expect(shot.redPixels > 1000, "the page is painted")
        bed.key("Right")
        #expect(bed.waitForWindow(named: "^hello\\.c$") != nil)
        usleep(500_000)
        let second = try bed.geometry(of: window)
        #expect(second.width == first.width && second.height == first.height, "\(second) after \(first)")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    @Test func aSmallImageIsCentredAtOneToOne() throws {
        let bed = try WindowTestBed()
        let image = directory.file("small.png")
        // A 60×40 red PNG (python3's zlib; a PNG is a signature and three chunks).
        let script = """
            import struct, sys, zlib
            def chunk(kind, data): return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
            rows = b"".join(b"\\x00" + b"\\xff\\x00\\x00" * 60 for _ in range(40))
            open(sys.argv[1], "wb").write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 60, 40, 8, 2, 0, 0, 0))
                                          + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
            """
        let made = bed.run(["/usr/bin/python3", "-c", script, image])
        #expect(made.status == 0, "\(made.standardError)")
        let viewer = try look([image], bed)
        defer { viewer.stop() }
        let window = bed.waitForWindow(named: "^small\\.png$")
        let tree = bed.waitForAccessible { $0.contains { $0.name == "Pages" && $0.extents != nil } }
        let shot = try bed.waitForScreenshot("small-image", window: window) { $0.redPixels >= 2000 }
        let red = try #require(shot.bounds { r, g, b in r > 200 && g < 60 && b < 60 })
        #expect(red.width == 60 && red.height == 40, "one image pixel per screen pixel: \(red)")
        let area = try #require(tree.first { $0.name == "Pages" }?.extents)
        // AT-SPI's window coordinates leave out the frame's border, which the screenshot holds.
        let frame = try #require(tree.first { $0.role == "frame" }?.extents)
        let (borderX, borderY) = ((shot.image.width - frame.width) / 2, (shot.image.height - frame.height) / 2)
        let (centreX, centreY) = (red.x + red.width / 2 - borderX, red.y + red.height / 2 - borderY)
        #expect(abs(centreX - (area.x + area.width / 2)) <= 3 && abs(centreY - (area.y + area.height / 2)) <= 3,
                "the image \(red) in the middle of the view \(area)")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    @Test func copyingSaysSoInAToastAndTheHeaderShowsTheTypesIconInColour() throws {
        let bed = try WindowTestBed()
        let viewer = try look([Samples.path("document.pdf")], bed)
        defer { viewer.stop() }
        let window = bed.waitForWindow(named: "^document\\.pdf$")
        var tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "page 1 of 3" } && Self.showing($0, "Copy") }
        let shot = try bed.waitForScreenshot("header-icon", window: window) { $0.redPixels > 2000 }
        let icon = try #require(tree.first { $0.name == "File type" }?.extents)
        #expect(icon.width >= 32 && icon.height >= 32, "a proper size: \(icon)")
        let coloured = shot.count(in: icon) { r, g, b in Int(max(r, g, b)) - Int(min(r, g, b)) > 40 }
        #expect(coloured > 30, "the type's icon in colour, not a grey page: \(coloured) coloured pixels in \(icon)")
        #expect(bed.press("Copy"))
        _ = try bed.screenshot("toast-0", window: window)
        tree = bed.waitForAccessible { Self.showing($0, "Copied document.pdf") }
        #expect(Self.showing(tree, "Copied document.pdf"), "a toast: \(tree.filter { $0.role == "label" }.map(\.name))")
        _ = try bed.waitForScreenshot("toast", window: window)
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
    /// The window starts GTK's settings with GTK's empty built-in theme, for libadwaita to
    /// replace at once, rather than parse GTK's own theme for nothing (Adwaita.skipGTKTheme):
    /// the window still has libadwaita's look (a light header bar, not the black of a window
    /// without a style sheet), and the name given to GTK is not passed on to the application
    /// Open With starts.
    @Test func gtksOwnThemeIsSkippedWithoutChangingTheLookOrWhatOpenWithStarts() throws {
        let bed = try WindowTestBed()
        let applications = directory.file("data/applications"), recorded = directory.file("editor-environment")
        try FileManager.default.createDirectory(atPath: applications, withIntermediateDirectories: true)
        let recorder = directory.file("record-environment")
        try "#!/bin/sh\nenv > '\(recorded).part' && mv '\(recorded).part' '\(recorded)'\n"
            .write(toFile: recorder, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: recorder)
        try "[Desktop Entry]\nType=Application\nName=Stand-in Editor\nExec=\(recorder) %F\nMimeType=text/plain;\n"
            .write(toFile: applications + "/stand-in-editor.desktop", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: directory.file("config"), withIntermediateDirectories: true)
        try "[Default Applications]\ntext/plain=stand-in-editor.desktop\n"
            .write(toFile: directory.file("config/mimeapps.list"), atomically: true, encoding: .utf8)
        var environment = self.environment(bed)
        environment["XDG_DATA_HOME"] = directory.file("data")
        environment["GTK_THEME"] = nil
        let viewer = try BackgroundProcess([QuireBinary.path, "look", Samples.path("notes.txt")], environment: environment,
                                           directory: directory.path)
        defer { viewer.stop() }
        let window = bed.waitForWindow(named: "^notes\\.txt$")
        #expect(window != nil, "\(viewer.errorOutput)")
        let tree = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Open with Stand-in Editor" } }
        let frame = try #require(tree.first { $0.role == "frame" }?.extents)
        // The header bar: libadwaita's light grey across the top of the window.
        let header = WindowTestBed.Accessible.Extents(x: 0, y: 0, width: frame.width, height: 40)
        let shot = try bed.waitForScreenshot("styled-header", window: window) { shot in
            shot.count(in: header) { r, g, b in r > 200 && g > 200 && b > 200 } > frame.width * 40 * 7 / 10
        }
        let light = shot.count(in: header) { r, g, b in r > 200 && g > 200 && b > 200 }
        #expect(light > frame.width * 40 * 7 / 10, "\(light) light pixels of \(frame.width * 40) in the header: \(shot.path)")
        #expect(bed.press("Open with Stand-in Editor"))
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: recorded) && Date() < deadline { usleep(100_000) }
        let lines = try String(contentsOfFile: recorded, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("XDG_DATA_HOME=") }, "the editor's environment was recorded")
        #expect(!lines.contains { $0.hasPrefix("GTK_THEME=") }, "\(lines.filter { $0.hasPrefix("GTK") })")
    }

    /// Where Quire's own desktop entry is the type's default (a system-wide install claims every
    /// type it previews), "Open with" offers the next application for the type, never Quire:
    /// "Open with Quire" in Quire's window would only open the same view again.
    @Test func openWithNeverOffersQuireItself() throws {
        let bed = try WindowTestBed()
        let applications = directory.file("data/applications")
        try FileManager.default.createDirectory(atPath: applications, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Quire\nExec=true %F\nMimeType=text/plain;\n"
            .write(toFile: applications + "/io.github.quire.Quire.desktop", atomically: true, encoding: .utf8)
        try "[Desktop Entry]\nType=Application\nName=Stand-in Editor\nExec=true %F\nMimeType=text/plain;\n"
            .write(toFile: applications + "/stand-in-editor.desktop", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: directory.file("config"), withIntermediateDirectories: true)
        try "[Default Applications]\ntext/plain=io.github.quire.Quire.desktop\n"
            .write(toFile: directory.file("config/mimeapps.list"), atomically: true, encoding: .utf8)
        var environment = self.environment(bed)
        environment["XDG_DATA_HOME"] = directory.file("data")
        let viewer = try BackgroundProcess([QuireBinary.path, "look", Samples.path("notes.txt")], environment: environment,
                                           directory: directory.path)
        defer { viewer.stop() }
        #expect(bed.waitForWindow(named: "^notes\\.txt$") != nil, "\(viewer.errorOutput)")
        let tree = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name.hasPrefix("Open with") } }
        let offered = tree.filter { $0.role == "push button" && $0.name.hasPrefix("Open with") }.map(\.name)
        // Another application for text (the stand-in, or one the system has), not Quire.
        #expect(offered.count == 1 && offered != ["Open with Quire"], "\(offered)")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
}
