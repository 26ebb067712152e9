#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuireTestSupport
import Testing

/// `quire info` through the built binary: output, JSON, and every bad-input case.
@Suite("quire info")
struct InfoCommandTests {
    @Test func humanCardForAPDF() throws {
        let result = QuireBinary.run(["info", Samples.path("document.pdf")])
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        let out = result.standardOutputText
        #expect(out.hasPrefix("document.pdf\n"))
        #expect(out.contains("Kind:       PDF document"))
        #expect(out.contains("Pages:      3"))
        #expect(out.contains("Page size:  595.3 × 841.9 pt (A4)"))
        #expect(out.contains("Title:      Quire Sample Document"))
        #expect(out.contains("  Print:      yes, the content (sent as it is)\n              whether a printer accepts it: quire actions\n"))
        #expect(!out.contains("\u{1B}["), "no colour codes when not a terminal")
    }

    @Test func jsonIsAnArrayInArgumentOrderAndKeepsGoing() throws {
        let result = QuireBinary.run(["info", "--json", Samples.path("document.pdf"), "/nonexistent-quire",
                                      Samples.path("quadrants.png")])
        #expect(result.status == 66)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput)) as? [[String: Any]])
        #expect(records.count == 3)
        #expect(records[0]["ok"] as? Bool == true)
        #expect(records[0]["mimeType"] as? String == "application/pdf")
        #expect((records[0]["pdf"] as? [String: Any])?["pages"] as? Int == 3)
        #expect((records[0]["pdf"] as? [String: Any])?["created"] as? String == "2026-01-02T03:04:05Z")
        #expect(records[1]["ok"] as? Bool == false)
        #expect((records[1]["error"] as? [String: Any])?["kind"] as? String == "not-found")
        #expect((records[2]["image"] as? [String: Any])?["width"] as? Int == 64)
        let capabilities = try #require(records[2]["capabilities"] as? [String: [String: Any]])
        #expect(capabilities["print"]?["mode"] as? String == "conversion")
        #expect(result.errorLines == ["quire: /nonexistent-quire: no such file"])
    }

    @Test func jsonForEverySampleParses() throws {
        // The files at the top (fonts/ and archives/ are folders of their own samples).
        let names = try FileManager.default.contentsOfDirectory(atPath: Samples.directory.path).sorted().filter { name in
            var folder: ObjCBool = false
            return FileManager.default.fileExists(atPath: Samples.path(name), isDirectory: &folder) && !folder.boolValue
        }
        // Every sample, office layouts included, in one process: the time limits only guard
        // against a hang. Laying out the 440-page office-long.docx takes 13 s on an idle
        // machine and went past the default per-file 60 s on a loaded CI machine.
        let result = QuireBinary.run(["info", "--json", "--timeout", "300"] + names.map(Samples.path), timeout: 600)
        try #require(!result.timedOut, "info --json over \(names.count) samples did not end in 600 s")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput)) as? [[String: Any]],
                                   "status \(result.status): \(result.standardError)")
        #expect(records.count == names.count)
        // Exactly the deliberately bad samples whose header `info` reads fail (the other
        // damaged samples — truncated PNG/SVG, bombs in EPUB/CBZ — have readable headers;
        // rendering refuses them, see ThumbnailCommandTests). Office files are laid out by
        // LibreOffice for their pages, title and author, so the bad ones fail here too; a comic
        // book's pages are counted, so one with too many entries fails, as does the ~890-page
        // workbook (info counts every page: over --max-pages). An EPUB book is read for its
        // contents: the DRM-protected one and the cut one fail, as an encrypted PDF does.
        let failed = records.filter { $0["ok"] as? Bool == false }.compactMap { $0["name"] as? String }.sorted()
        #expect(failed == ["bomb.odt", "drm.epub", "encrypted.pdf", "garbage.jpg", "garbage.pdf", "many-entries.cbz", "office-bomb.docx", "office-encrypted.doc", "office-encrypted.xlsx",
                           "office-fuzzed.xls", "office-garbage.doc", "office-long-sheet.xlsx", "office-password.odt", "office-truncated.docx", "stripped.cr2",
                           "truncated.epub", "truncated.heic", "truncated.jpg", "truncated.odt", "truncated.pdf"])
        #expect(result.status == 65)
    }

    /// A file that runs out of time ends the run (status 75), but the JSON array is still
    /// whole: the files before it as they were described, then that file's object saying so.
    @Test func aFileOutOfTimeEndsTheArrayWithItsObjectAndKeepsTheFilesBefore() throws {
        // A test hook holds the office worker on that file for ever.
        let result = QuireBinary.run(["info", "--json", "--timeout", "2", Samples.path("document.pdf"),
                                      Samples.path("office-report.docx"), Samples.path("quadrants.png")],
                                     timeout: 60, environment: ["QUIRE_TEST_WORKER_HANG_ON": "office-report.docx"])
        #expect(result.status == 75)
        #expect(result.errorLines == ["quire: \(Samples.path("office-report.docx")): gave up after 2 s, the per-file time limit (--timeout)"])
        let records = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput)) as? [[String: Any]],
                                   "\(result.standardOutputText)")
        #expect(records.count == 2, "the file out of time is the last")
        #expect(records.first?["ok"] as? Bool == true)
        #expect((records.first?["pdf"] as? [String: Any])?["pages"] as? Int == 3)
        #expect(records.last?["ok"] as? Bool == false && records.last?["name"] as? String == "office-report.docx")
        let error = records.last?["error"] as? [String: Any]
        #expect(error?["kind"] as? String == "timeout")
        #expect(error?["message"] as? String == "gave up after 2 s, the per-file time limit (--timeout)")
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        let label: String
        let make: @Sendable (TemporaryDirectory) -> String
        let status: Int32
        let reason: String
        var testDescription: String { label }
    }

    static let badCases: [BadCase] = [
        BadCase(label: "missing", make: { $0.file("missing.pdf") }, status: 66, reason: "no such file"),
        BadCase(label: "directory", make: { $0.path }, status: 66, reason: "is a directory, not a file"),
        BadCase(label: "FIFO", make: { dir in
            mkfifo(dir.file("fifo"), 0o600)
            return dir.file("fifo")
        }, status: 66, reason: "is a named pipe (FIFO), not a regular file"),
        BadCase(label: "/dev/zero", make: { _ in "/dev/zero" }, status: 66,
                reason: "is a character device, not a regular file"),
        BadCase(label: "symlink loop", make: { dir in
            symlink(dir.file("b"), dir.file("a"))
            symlink(dir.file("a"), dir.file("b"))
            return dir.file("a")
        }, status: 66, reason: "too many levels of symbolic links (symlink loop)"),
        BadCase(label: "truncated PDF", make: { _ in Samples.path("truncated.pdf") }, status: 65,
                reason: "not a readable PDF (PDF document is damaged)"),
        BadCase(label: "garbage PDF", make: { _ in Samples.path("garbage.pdf") }, status: 65,
                reason: "not a readable PDF (PDF document is damaged)"),
        BadCase(label: "encrypted PDF", make: { _ in Samples.path("encrypted.pdf") }, status: 65,
                reason: "PDF is password-protected (give the password with --password)"),
    ]

    @Test("bad input: one line naming the file, sysexits status, prompt exit", arguments: badCases)
    func badInput(_ bad: BadCase) throws {
        let dir = TemporaryDirectory()
        let path = bad.make(dir)
        let result = QuireBinary.run(["info", path], timeout: 10)
        #expect(!result.timedOut)
        #expect(result.signal == nil)
        #expect(result.elapsed < 5)
        #expect(result.status == bad.status)
        #expect(result.errorLines == ["quire: \(path): \(bad.reason)"])
    }

    /// A 0-byte file is typed by its name, as file managers do (issue #14): a card, exit 0;
    /// preview and thumbnail still refuse it with one line.
    @Test func emptyFileIsTypedByName() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("x.c")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let result = QuireBinary.run(["info", path])
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        let out = result.standardOutputText
        #expect(out.contains("Kind:       C source code\n"))
        #expect(out.contains("MIME type:  text/x-csrc\n"))
        #expect(out.contains("Size:       0 bytes\n"))
        #expect(out.contains("Preview:    no — the file is empty\n"))

        let nameless = dir.file("nameless")
        #expect(FileManager.default.createFile(atPath: nameless, contents: Data()))
        let json = QuireBinary.run(["info", "--json", path, nameless])
        #expect(json.status == 0)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput)) as? [[String: Any]])
        #expect(records.map { $0["mimeType"] as? String } == ["text/x-csrc", "application/x-zerosize"])
        #expect(records.map { $0["size"] as? Int } == [0, 0])
        #expect(records.map { $0["ok"] as? Bool } == [true, true])

        let preview = QuireBinary.run(["preview", "-o", dir.file("out.png"), path])
        #expect(preview.status == 65)
        #expect(preview.errorLines == ["quire: \(path): file is empty (0 bytes)"])
        let thumbnail = QuireBinary.run(["thumbnail", "-s", "128", path, dir.file("thumb.png")])
        #expect(thumbnail.status == 65)
        #expect(thumbnail.errorLines == ["quire: \(path): file is empty (0 bytes)"])
        #expect(!FileManager.default.fileExists(atPath: dir.file("out.png")))
        #expect(!FileManager.default.fileExists(atPath: dir.file("thumb.png")))
    }

    /// Issue 42: `preview` and `thumbnail` of an image no gdk-pixbuf loader reads (a JPEG 2000
    /// header: Debian has no loader for it) say what `info` says, in one line, not "not a
    /// readable image".
    @Test func anImageWithNoLoaderIsSaidSoByEveryCommand() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("picture.jp2")
        // The JP2 signature box, the file-type box and an image header box (64×64, 3 components).
        let header: [UInt8] = [0, 0, 0, 12, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A,
                               0, 0, 0, 20, 0x66, 0x74, 0x79, 0x70, 0x6A, 0x70, 0x32, 0x20, 0, 0, 0, 0, 0x6A, 0x70, 0x32, 0x20,
                               0, 0, 0, 45, 0x6A, 0x70, 0x32, 0x68, 0, 0, 0, 22, 0x69, 0x68, 0x64, 0x72,
                               0, 0, 0, 64, 0, 0, 0, 64, 0, 3, 7, 7, 0, 0, 0, 0, 0, 15, 0x63, 0x6F, 0x6C, 0x72, 1, 0, 0, 0, 0, 0, 16]
        try Data(header).write(to: URL(fileURLWithPath: path))
        let type = QuireBinary.run(["info", "--json", path]).standardOutputText
        try #require(type.contains("\"mimeType\" : \"image/jp2\""), "shared-mime-info types it as JPEG 2000: \(type)")
        let reason = "no image loader for JPEG-2000 JP2 image is installed"
        let info = QuireBinary.run(["info", path])
        #expect(info.standardOutputText.contains("Preview:    no — \(reason)\n"), "\(info.standardOutputText)")
        let preview = QuireBinary.run(["preview", "-o", dir.file("out.png"), path])
        #expect(preview.status == 65)
        #expect(preview.errorLines == ["quire: \(path): \(reason)"])
        let thumbnail = QuireBinary.run(["thumbnail", "-s", "128", path, dir.file("thumb.png")])
        #expect(thumbnail.status == 65)
        #expect(thumbnail.errorLines.count == 1)
        #expect(thumbnail.standardError.contains(reason), "\(thumbnail.standardError)")
    }

    /// Issue 39: a camera RAW file's shot on the card and in JSON (the place it was taken never).
    @Test func aRawPhotosShotIsOnTheCard() throws {
        let result = QuireBinary.run(["info", Samples.path("camera.rw2")])
        #expect(result.status == 0, "\(result.standardError)")
        for line in ["Camera:     Panasonic DMC-LX3\n", "Exposure:   1/250 s · f/4 · ISO 80 · 5.1 mm\n", "Taken:      2008-08-06 15:21\n",
                     "Preview:    yes\n"] {
            #expect(result.standardOutputText.contains(line), "\(line) in \(result.standardOutputText)")
        }
        let json = QuireBinary.run(["info", "--json", Samples.path("camera.dng")])
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput)) as? [[String: Any]])
        let photo = try #require(records.first?["photo"] as? [String: Any])
        #expect(photo["camera"] as? String == "Canon EOS 350D" && photo["iso"] as? Int == 400 && photo["hasLocation"] as? Bool == false)
        let refused = QuireBinary.run(["info", Samples.path("stripped.cr2")])
        #expect(refused.status == 65 && refused.errorLines.count == 1 && refused.standardError.contains("not a readable camera RAW file"))
    }

    /// JPEG XL through libjxl: its size on the card, a preview and a thumbnail; a cut file is
    /// one line and status 65 for each command that draws it (`info` reads the header only, as
    /// for every image).
    @Test func aJPEGXLImageHasItsSizeAPreviewAndAThumbnail() throws {
        let result = QuireBinary.run(["info", Samples.path("quadrants.jxl")])
        #expect(result.status == 0, "\(result.standardError)")
        for line in ["Dimensions:  64 × 48 pixels\n", "Preview:     yes\n", "Thumbnail:   yes\n"] {
            #expect(result.standardOutputText.contains(line), "\(line) in \(result.standardOutputText)")
        }
        let directory = TemporaryDirectory()
        let thumbnail = QuireBinary.run(["thumbnail", "-s", "32", Samples.path("photo-rotated.jxl"), directory.file("t.png")])
        #expect(thumbnail.status == 0, "\(thumbnail.standardError)")
        let png = try Data(contentsOf: URL(fileURLWithPath: directory.file("t.png")))
        // IHDR: width then height, big-endian, at bytes 16 and 20: the photo upright (taller than wide).
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(height == 32 && width == 24, "\(width)×\(height)")
        // A cut JPEG XL and a cut HEIC (libheif's engine) alike.
        for sample in ["truncated.jxl", "truncated.heic"] {
            for command in [["preview", "-o", directory.file("cut.png")], ["thumbnail", "-s", "32"]] {
                var arguments = command + [Samples.path(sample)]
                if command.first == "thumbnail" { arguments.append(directory.file("cut-thumbnail.png")) }
                let cut = QuireBinary.run(arguments)
                #expect(cut.status == 65 && cut.errorLines.count == 1, "\(sample) \(command): \(cut.status) \(cut.standardError)")
                #expect(!FileManager.default.fileExists(atPath: directory.file("cut.png")), "nothing written for \(sample)")
            }
        }
    }

    /// Issue 39: a photo's GPS position is given only when asked (privacy by default).
    @Test func aPhotosLocationIsShownOnlyWhenAsked() throws {
        let plain = QuireBinary.run(["info", Samples.path("photo-gps.jpg")])
        #expect(plain.status == 0, "\(plain.standardError)")
        let rows = plain.standardOutputText.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(rows.contains("Location: recorded (not shown)") && rows.contains("Camera: QuireCam"), "\(plain.standardOutputText)")
        #expect(!plain.standardOutputText.contains("48.85"))
        let shown = QuireBinary.run(["info", "--show-location", Samples.path("photo-gps.jpg")])
        #expect(shown.standardOutputText.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
                    .contains("Location: 48.858367° N, 2.294500° W"), "\(shown.standardOutputText)")
        let hidden = QuireBinary.run(["info", "--json", Samples.path("photo-gps.jpg")])
        let hiddenPhoto = try #require((try JSONSerialization.jsonObject(with: Data(hidden.standardOutput)) as? [[String: Any]])?.first?["photo"] as? [String: Any])
        #expect(hiddenPhoto["hasLocation"] as? Bool == true && hiddenPhoto["latitude"] == nil && hiddenPhoto["longitude"] == nil)
        let json = QuireBinary.run(["info", "--json", "--show-location", Samples.path("photo-gps.jpg")])
        let photo = try #require((try JSONSerialization.jsonObject(with: Data(json.standardOutput)) as? [[String: Any]])?.first?["photo"] as? [String: Any])
        let latitude = try #require(photo["latitude"] as? Double), longitude = try #require(photo["longitude"] as? Double)
        #expect(abs(latitude - (48 + 51.0 / 60 + 30.12 / 3600)) < 1e-9 && abs(longitude + (2 + 17.0 / 60 + 40.2 / 3600)) < 1e-9, "\(photo)")
    }

    /// A camera RAW file's GPS position (LibRaw's), as a JPEG's: only when asked.
    @Test func aRawPhotosLocationIsShownOnlyWhenAsked() throws {
        let plain = QuireBinary.run(["info", Samples.path("camera-gps.dng")])
        #expect(plain.status == 0, "\(plain.standardError)")
        let rows = plain.standardOutputText.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(rows.contains("Location: recorded (not shown)") && rows.contains("Camera: Canon EOS 350D"), "\(plain.standardOutputText)")
        #expect(!plain.standardOutputText.contains("48.85"))
        let shown = QuireBinary.run(["info", "--show-location", Samples.path("camera-gps.dng")])
        #expect(shown.standardOutputText.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
                    .contains("Location: 48.858367° N, 2.294500° E"), "\(shown.standardOutputText)")
        let json = QuireBinary.run(["info", "--json", "--show-location", Samples.path("camera-gps.dng")])
        let photo = try #require((try JSONSerialization.jsonObject(with: Data(json.standardOutput)) as? [[String: Any]])?.first?["photo"] as? [String: Any])
        let latitude = try #require(photo["latitude"] as? Double), longitude = try #require(photo["longitude"] as? Double)
        #expect(abs(latitude - 48.858367) < 1e-4 && abs(longitude - 2.2945) < 1e-4, "\(photo)")
        // Without GPS: nothing said.
        let none = QuireBinary.run(["info", "--show-location", Samples.path("camera.dng")])
        #expect(!none.standardOutputText.contains("Location"), "\(none.standardOutputText)")
    }

    /// Issue 39: `preview --full` develops a RAW's sensor data (3664×2754, its own shape)
    /// instead of showing the camera's 8×8 preview; other files are drawn as always.
    @Test func previewFullDevelopsARawPhotosSensorData() throws {
        let dir = TemporaryDirectory()
        func size(_ arguments: [String]) throws -> (Int, Int) {
            let out = dir.path + "/out.png"
            let result = QuireBinary.run(["preview", "--width", "400"] + arguments + ["-o", out])
            #expect(result.status == 0, "\(result.standardError)")
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
            try #require(bytes.count > 24 && bytes[12...15].elementsEqual("IHDR".utf8))
            func integer(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
            return (integer(16), integer(20))
        }
        #expect(try size([Samples.path("camera.rw2")]) == (400, 400), "the preview, square")
        #expect(try size(["--full", Samples.path("camera.rw2")]) == (400, 301), "the sensor, 3664×2754")
        #expect(try size(["--full", Samples.path("animations/moving.gif")]) == (400, 300), "not a RAW: as always")
    }

    /// Issue 39: a HEIC's EXIF item gives `info` the camera and the shot, an AVIF's its
    /// location only when asked, as a JPEG's block does.
    @Test func aHEIFPhotosDetailsAreRead() throws {
        let heic = QuireBinary.run(["info", Samples.path("photo-exif.heic")])
        #expect(heic.status == 0, "\(heic.standardError)")
        let rows = heic.standardOutputText.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(rows.contains("Camera: FUJIFILM X-T30") && rows.contains("Lens: XF35mmF2 R WR")
                    && rows.contains("Exposure: 1/125 s · f/2.8 · ISO 200 · 35 mm"), "\(heic.standardOutputText)")
        let avif = QuireBinary.run(["info", Samples.path("photo-gps.avif")])
        #expect(avif.standardOutputText.contains("recorded (not shown)") && !avif.standardOutputText.contains("48.85"), "\(avif.standardOutputText)")
        let shown = QuireBinary.run(["info", "--show-location", Samples.path("photo-gps.avif")])
        #expect(shown.standardOutputText.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
                    .contains("Location: 48.858367° N, 2.294500° W"), "\(shown.standardOutputText)")
    }

    /// Issue 39: an animation's frames, length and loops on the card and in JSON.
    @Test func anAnimationsFramesAreOnTheCard() throws {
        let result = QuireBinary.run(["info", Samples.path("animations/animated.gif")])
        #expect(result.status == 0, "\(result.standardError)")
        let rows = result.standardOutputText.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(rows.contains("Frames: 3") && rows.contains("Animation: 0.30 s, loops forever"), "\(result.standardOutputText)")
        let json = QuireBinary.run(["info", "--json", Samples.path("animations/animated.png")])
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput)) as? [[String: Any]])
        let animation = try #require(records.first?["animation"] as? [String: Any])
        #expect(animation["frames"] as? Int == 4 && animation["loops"] as? Int == 1 && animation["isCut"] as? Bool == false, "\(animation)")
        // An animated JPEG XL: its frame headers read by libjxl.
        let jxl = QuireBinary.run(["info", "--json", Samples.path("animations/animated.jxl"), Samples.path("quadrants.jxl")])
        let jxlRecords = try #require(try JSONSerialization.jsonObject(with: Data(jxl.standardOutput)) as? [[String: Any]])
        let jxlAnimation = try #require(jxlRecords.first?["animation"] as? [String: Any], "\(jxlRecords)")
        #expect(jxlAnimation["frames"] as? Int == 3 && jxlAnimation["loops"] as? Int == 0 && jxlAnimation["duration"] as? Double == 0.3, "\(jxlAnimation)")
        #expect(jxlRecords.last?["animation"] == nil, "a still JPEG XL")
        // An AVIF image sequence (no image item: libheif cannot read it): libavif reads its
        // track, its size and frames; `preview` draws its first frame.
        let avif = QuireBinary.run(["info", "--json", Samples.path("animations/animated.avif"), Samples.path("photo.avif")])
        let avifRecords = try #require(try JSONSerialization.jsonObject(with: Data(avif.standardOutput)) as? [[String: Any]], "\(avif.standardError)")
        let avifAnimation = try #require(avifRecords.first?["animation"] as? [String: Any], "\(avifRecords)")
        #expect(avifAnimation["frames"] as? Int == 3 && avifAnimation["loops"] as? Int == 0 && avifAnimation["duration"] as? Double == 0.3, "\(avifAnimation)")
        let avifImage = try #require(avifRecords.first?["image"] as? [String: Any], "\(avifRecords)")
        #expect(avifImage["width"] as? Int == 60 && avifImage["height"] as? Int == 40, "\(avifImage)")
        #expect(avifRecords.last?["animation"] == nil, "a still AVIF")
        let directory = TemporaryDirectory("quire-avif-sequence")
        let png = directory.file("first.png")
        let preview = QuireBinary.run(["preview", Samples.path("animations/animated.avif"), "-o", png])
        #expect(preview.status == 0, "\(preview.standardError)")
        let drawn = try IsolationRuleTests.decodePNG(png)
        let pixel = drawn.pixel(x: drawn.width / 2, y: drawn.height / 2)
        #expect(drawn.width == 60 && pixel.red > 240 && pixel.green < 16 && pixel.blue < 16, "the red first frame: \(pixel)")
        let still = QuireBinary.run(["info", "--json", Samples.path("format.gif")])
        let stillRecords = try #require(try JSONSerialization.jsonObject(with: Data(still.standardOutput)) as? [[String: Any]])
        #expect(stillRecords.first?["animation"] == nil)
    }

    /// An EPUB book's card: title, author, chapters, words and its table of contents, indented
    /// by level; in JSON each entry's line (from 1) in the text `look` shows, none for an entry
    /// outside the book.
    @Test func aBooksContentsAreOnTheCard() throws {
        let result = QuireBinary.run(["info", Samples.path("novel.epub")])
        #expect(result.status == 0, "\(result.standardError)")
        let out = result.standardOutputText
        for row in ["  Title:      The Quire Reader\n", "  Author:     A. Author & B. Writer\n", "  Chapters:   2\n",
                    "  Contents:   4 entries\n              The First Chapter\n              A quotation\n                Some code\n              Elsewhere (not shown)\n"] {
            #expect(out.contains(row), "\(row) in \(out)")
        }
        let json = QuireBinary.run(["info", "--json", Samples.path("old-book.epub"), Samples.path("plain-book.epub")])
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput)) as? [[String: Any]])
        let old = try #require(records.first?["ebook"] as? [String: Any])
        let entries = try #require(old["contents"] as? [[String: Any]])
        #expect(entries.map { $0["title"] as? String } == ["Part & One", "Its Second Scene", "Part Two"])
        #expect(entries.map { $0["level"] as? Int } == [1, 2, 1] && old["contentsFromHeadings"] as? Bool == false)
        #expect(old["chapters"] as? Int == 2 && old["cut"] as? Bool == false && (old["words"] as? Int ?? 0) > 700)
        // Counted from 1: the first scene's line, then 60 paragraphs (each a line and a blank
        // line) before the second scene's, 60 more before part two's.
        #expect(entries.map { $0["line"] as? Int } == [1, 123, 245])
        // A DRM-protected book: its card all the same, then why, in one line (exit 65, as for an
        // encrypted PDF).
        let drm = QuireBinary.run(["info", Samples.path("drm.epub")])
        #expect(drm.status == 65 && drm.standardOutputText.contains("Kind:       electronic book document"), "\(drm.standardOutputText)")
        #expect(drm.standardOutputText.contains("Preview:    no — the book is protected by DRM")
                && drm.standardOutputText.contains("Print:      no — the book is protected by DRM"), "\(drm.standardOutputText)")
        #expect(drm.errorLines == ["quire: \(Samples.path("drm.epub")): the book is protected by DRM; Quire shows only books that are not"],
                "\(drm.standardError)")
        // Nothing offers to show or print it (the viewers' Print, `actions`, `can-print`).
        let actions = QuireBinary.run(["actions", Samples.path("drm.epub")])
        #expect(actions.standardOutputText.contains("Print      no: the book is protected by DRM"), "\(actions.standardOutputText)")
        let plain = try #require(records.last?["ebook"] as? [String: Any])
        #expect(plain["contentsFromHeadings"] as? Bool == true && (plain["contents"] as? [Any])?.count == 3)
    }

    /// Files that report size 0 but are not empty (/proc) are typed by name and never read:
    /// reading /proc/self/mem at offset 0 fails with EIO.
    @Test func sizeZeroProcFilesAreNotRead() throws {
        let dir = TemporaryDirectory()
        let link = dir.file("memory.pdf")
        #expect(symlink("/proc/self/mem", link) == 0)
        let result = QuireBinary.run(["info", "--json", link])
        #expect(result.status == 0, "\(result.standardError)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput)) as? [[String: Any]])
        #expect(records.first?["mimeType"] as? String == "application/pdf")
        #expect(records.first?["family"] as? String == "empty")
    }

    @Test func encryptedPDFStillShowsItsCardAndOpensWithPassword() {
        let locked = QuireBinary.run(["info", Samples.path("encrypted.pdf")])
        #expect(locked.standardOutputText.contains("Encrypted:  yes, a password is needed to open it"))
        let open = QuireBinary.run(["info", "--password", "secret", Samples.path("encrypted.pdf")])
        #expect(open.status == 0)
        #expect(open.standardOutputText.contains("Pages:      3"))
    }

    @Test func unreadableFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("secret.txt")
        FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
        #expect(chmod(path, 0) == 0)
        let result: ProcessRunner.Result
        if geteuid() == 0 {
            // Root reads anything: drop to nobody for this check.
            #expect(chmod(dir.path, 0o755) == 0)
            result = ProcessRunner.run(["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                                        QuireBinary.path, "info", path])
        } else {
            result = QuireBinary.run(["info", path])
        }
        #expect(result.status == 66)
        #expect(result.errorLines == ["quire: \(path): permission denied (the file is not readable)"])
    }

    @Test("awkward names", arguments: ["with spaces.txt", "new\nline.txt", "-leading-dash.txt", "tab\there.txt"])
    func awkwardNames(name: String) throws {
        let dir = TemporaryDirectory()
        let path = dir.file(name)
        FileManager.default.createFile(atPath: path, contents: Data("hello\n".utf8))
        let result = QuireBinary.run(["info", "--json", "--", path])
        #expect(result.status == 0)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput)) as? [[String: Any]])
        #expect(records.first?["mimeType"] as? String == "text/plain")
        #expect(records.first?["size"] as? Int == 6)
        // The human card shows the name on one line.
        let human = QuireBinary.run(["info", "--", path])
        let firstLine = human.standardOutputText.split(separator: "\n").first.map(String.init)
        #expect(firstLine == name.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\t", with: "\\t"))
    }

    @Test func leadingDashNameInTheWorkingDirectoryForm() throws {
        // Without `--`, a name starting with '-' is an option: usage error 64, not a crash.
        let result = QuireBinary.run(["info", "-not-an-option.pdf"])
        #expect(result.status == 64)
    }

    @Test func invalidUTF8NameIsOpenedByItsBytes() throws {
        let dir = TemporaryDirectory()
        let bytes = Array(dir.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".txt".utf8)  // Latin-1 é
        let fd = (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                open($0, O_WRONLY | O_CREAT, 0o600)
            }
        }
        #expect(fd >= 0)
        _ = write(fd, "bonjour\n", 8)
        close(fd)
        let result = QuireBinary.run(bytes: [Array("info".utf8), Array("--json".utf8), bytes])
        #expect(result.status == 0)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput)) as? [[String: Any]])
        #expect(records.first?["size"] as? Int == 8)
        #expect(records.first?["name"] as? String == "caf\\xE9.txt")
        // A missing file with such a name gets an escaped one-line message.
        let missing = Array(dir.path.utf8) + Array("/no".utf8) + [0xFF, 0x0A] + Array("pe".utf8)
        let failed = QuireBinary.run(bytes: [Array("info".utf8), missing])
        #expect(failed.status == 66)
        #expect(failed.errorLines == ["quire: \(dir.path)/no\\xFF\\npe: no such file"])
    }

    @Test func sourceFilesAreNotModified() throws {
        let path = Samples.path("document.pdf")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var statBefore = stat()
        stat(path, &statBefore)
        _ = QuireBinary.run(["info", path])
        var statAfter = stat()
        stat(path, &statAfter)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(statAfter.st_mtim.tv_sec == statBefore.st_mtim.tv_sec)
        #expect(statAfter.st_mtim.tv_nsec == statBefore.st_mtim.tv_nsec)
    }

    @Test func noArgumentsIsAUsageError() {
        let result = QuireBinary.run(["info"])
        #expect(result.status == 64)
    }

    @Test func noColorIsHonouredAndPlainOutputHasNoEscapes() {
        let result = QuireBinary.run(["info", Samples.path("notes.txt")], environment: ["NO_COLOR": "1", "PATH": "/usr/bin:/bin"])
        #expect(result.status == 0)
        #expect(!result.standardOutputText.contains("\u{1B}"))
    }
}
