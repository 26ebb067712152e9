import Foundation
import QuireTestSupport
import QuireTypes
import Testing

/// Quire's type detection against GIO's (`gio info -a standard::content-type`, what Nautilus and
/// other GIO file managers show) on the corpus `Samples/types.py` writes: source files whose first
/// line matches another language's weak magic, playlists, container siblings, misnamed and empty
/// files. Every file must agree with `gio info`, or be one of the deliberate differences below —
/// each one explained in docs/notes/types.md.
@Suite("Type detection agrees with gio info")
struct GIOAgreementTests {
    /// File → (what `gio info` says, what Quire says). Nothing else may differ.
    static let deliberateDifferences: [String: (gio: String, quire: String)] = {
        var table: [String: (gio: String, quire: String)] = [
            // Binary content under a text name: the content's signature wins.
            "pdf-named-as.txt": ("text/plain", "application/pdf"),
            // The name's format has a signature the content lacks; the content has an image's.
            "jpeg-named-as.png": ("image/png", "image/jpeg"),
            // shared-mime-info's order: a magic match of priority ≥ 80, or for a non-text sub-class
            // of the glob's type, overrides a single glob; GIO never reads a file whose name has
            // exactly one glob.
            "figure.ps": ("application/postscript", "image/x-eps"),
            "picture.xml": ("application/xml", "image/svg+xml"),
            "report-as.zip": ("application/zip", "application/vnd.oasis.opendocument.text"),
        ]
        // Empty files: GIO answers text/plain for every 0-byte file without looking at its name;
        // Quire types it by name (application/x-zerosize when no glob matches), as Qt's
        // QMimeDatabase (KDE's file managers) and xdgmime's own file lookup do.
        let emptyByName = [
            "x.c": "text/x-csrc", "a.c": "text/x-csrc", "x.h": "text/x-chdr", "x.el": "text/x-emacs-lisp",
            "x.py": "text/x-python", "x.java": "text/x-java", "x.md": "text/markdown",
            "x.pdf": "application/pdf", "x.png": "image/png", "x.jpg": "image/jpeg",
            "x.odt": "application/vnd.oasis.opendocument.text", "x.html": "text/html",
            "x.m": "text/x-objcsrc", "x.ogg": "audio/ogg", "x.desktop": "application/x-desktop",
            "x.tar.gz": "application/x-compressed-tar", "x.json": "application/json", "x.svg": "image/svg+xml",
            "x.sh": "application/x-shellscript", "x.mo": "application/x-gettext-translation",
            "x.ram": "application/ram", "core": "application/x-core", "Makefile.empty": "text/x-makefile",
            "README": "text/x-readme", "empty": "application/x-zerosize", ".hidden": "application/x-zerosize",
        ]
        for (name, type) in emptyByName { table[name] = ("text/plain", type) }
        return table
    }()

    /// Files where the name is right and weak magic of another type used to win (issue #14),
    /// and the container siblings: each must now match `gio info` exactly.
    static let mustAgree = [
        "Shape.java", "Point.java", "Main.java", "models.py", "shapes.py", "tool.py", "window.gs",
        "build.groovy", "tasks.groovy", "README.md", "NOTES.md", "CHANGES.md", "style.css", "app.js",
        "lib.js", "module.jsm", "entities.ent", "symbols.ent", "page.html", "playlist.ram", "stream.ram",
        "budget.numbers", "letter.pages", "talk.key", "old-budget.numbers", "old-letter.pages",
        "report.odt", "report-template.ott", "sheet.ods", "sheet-template.ots", "letter.sxw",
        "letter-template.stw", "song.m4a", "ringtone.m4r", "book.m4b", "x.txt", "comments.txt",
    ]

    @Test func everyFileAgreesWithGIOOrDiffersDeliberately() throws {
        let directory = TemporaryDirectory("quire-types")
        let generated = ProcessRunner.run(
            ["/usr/bin/env", "python3", Samples.repositoryRoot.appendingPathComponent("Samples/types.py").path,
             directory.path, Samples.directory.path], timeout: 60)
        try #require(generated.status == 0, "types.py failed: \(generated.standardError)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        try #require(names.count > 60, "the corpus is unexpectedly small: \(names.count)")

        let gio = try Self.gioContentTypes(of: names.map(directory.file))
        var differences: [String: (gio: String, quire: String)] = [:]
        for name in names {
            let file = try InputFile(path: DocumentPath(directory.file(name)), allowEmpty: true)
            let quire = try ContentType.detect(file).mimeType
            let fromGIO = try #require(gio[directory.file(name)], "gio info said nothing about \(name)")
            if quire != fromGIO { differences[name] = (fromGIO, quire) }
        }

        for (name, difference) in differences.sorted(by: { $0.key < $1.key }) {
            let expected = Self.deliberateDifferences[name]
            #expect(expected?.gio == difference.gio && expected?.quire == difference.quire,
                    "\(name): gio info says \(difference.gio), Quire says \(difference.quire) — not a listed difference")
        }
        for (name, expected) in Self.deliberateDifferences.sorted(by: { $0.key < $1.key }) {
            #expect(differences[name] != nil,
                    "\(name): listed as a deliberate difference (gio \(expected.gio), Quire \(expected.quire)) but they agree")
        }
        for name in Self.mustAgree {
            #expect(names.contains(name), "\(name) is missing from the corpus")
            #expect(differences[name] == nil, "\(name) must agree with gio info")
        }
    }

    /// `gio info -a standard::content-type` for many files in one run: path → content type.
    static func gioContentTypes(of paths: [String]) throws -> [String: String] {
        let result = ProcessRunner.run(["/usr/bin/gio", "info", "-a", "standard::content-type"] + paths, timeout: 60)
        try #require(result.status == 0, "gio info failed: \(result.standardError)")
        var types: [String: String] = [:]
        var current: String?
        for line in result.standardOutputText.split(separator: "\n") {
            if line.hasPrefix("local path: ") {
                current = String(line.dropFirst("local path: ".count))
            } else if let path = current, line.hasPrefix("  standard::content-type: ") {
                types[path] = String(line.dropFirst("  standard::content-type: ".count))
            }
        }
        try #require(types.count == paths.count, "gio info reported \(types.count) of \(paths.count) files")
        return types
    }
}
