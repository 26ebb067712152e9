#!/usr/bin/env python3
"""Writes Quire's type-detection corpus into OUTDIR (created if missing).

Usage: types.py OUTDIR [SAMPLES]

Files whose name and first bytes pull in different directions, for checking `quire info`
against `gio info -a standard::content-type` file by file (Tests/QuireTypesTests/
GIOAgreementTests.swift; the expected differences are listed there and in docs/notes/types.md):

- source files whose first line matches a weak text magic rule of another language
  (shared-mime-info: Modelica `class`/`model`/`record`/`function`/`//`, MATLAB `function`/`%`/`##`,
  C `/*`/`//`/`#include`, Perl `use strict`, HTML `<!--`);
- RealMedia playlists (`.ram`), one of them with a binary RealMedia header;
- container siblings told apart by name or inner entries: iWork Pages/Numbers/Keynote, ODF and
  OpenOffice.org documents vs templates, MP4 audio vs `.m4r` ringtones and `.m4b` audiobooks;
- empty files under many names, and files with a misleading or no name.

SAMPLES (default Samples/generated) provides a real PDF and JPEG for the misnamed copies.
Deterministic; Python standard library only.
"""
import os, struct, sys, zipfile

out = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
samples = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "generated")
os.makedirs(out, exist_ok=True)

def write(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)

def sample(name):
    with open(os.path.join(samples, name), "rb") as f:
        return f.read()

# --- Source files whose first line looks like another language (the name is right) ---------------
write("Shape.java", "class Shape {\n    int sides;\n}\n")                       # Modelica "class"
write("Point.java", "record Point(int x, int y) {}\n")                            # Modelica "record"
write("Main.java", "// Licensed under the MIT licence\npublic class Main {}\n")    # C and Modelica "//"
write("models.py", "model = load('weights.bin')\nprint(model)\n")                 # Modelica "model"
write("shapes.py", "class Shape:\n    pass\n")                                    # Modelica "class"
write("tool.py", "#!/usr/bin/env python3\nprint('hi')\n")                         # python3 shebang (sub-class)
write("window.gs", "class Window : Gtk.Window\n    init\n        title = \"x\"\n")  # Genie; Modelica "class"
write("build.groovy", "class Build {\n    def run() {}\n}\n")                      # Modelica "class"
write("tasks.groovy", "// Gradle tasks\ntask hello {}\n")                          # C and Modelica "//"
write("README.md", "function overview\n\nThis project has functions.\n")          # MATLAB/Modelica "function"
write("NOTES.md", "% Meeting notes\n% 2026-11-23\n\nAgenda\n")                      # MATLAB "%"
write("CHANGES.md", "## 1.0\n\n- first release\n")                               # MATLAB "##"
write("style.css", "/* reset */\nbody { margin: 0; }\n")                          # C "/*"
write("app.js", "// entry point\nconsole.log('hi');\n")                           # C "//"
write("lib.js", "/* @license MIT */\nexport const x = 1;\n")                      # C "/*"
write("module.jsm", "\"use strict\";\nvar EXPORTED_SYMBOLS = [\"Foo\"];\n")         # Perl "use strict"
write("entities.ent", "<!-- HTML entities -->\n<!ENTITY nbsp \"&#160;\">\n")      # HTML "<!--"
write("symbols.ent", "<!ENTITY copy \"&#169;\">\n<title>x</title>\n")             # HTML "<title"
write("page.html", "<?php echo 'hi'; ?>\n<p>x</p>\n")                             # PHP, priority 80
write("hello.c", "#include <stdio.h>\nint main(void) { return 0; }\n")
write("notes.txt", "Plain words on a line.\n" * 20)
write("comments.txt", "// not C: a note that starts like a comment\n")         # C "//", sub-class of text/plain
write("playlist.ram", "rtsp://media.example.com/talk.rm\n")
write("stream.ram", b".RMF\x00\x00\x00\x12\x00\x01\x00\x00\x00\x00\x00\x00\x00\x07" + bytes(64))
write("script", "#!/bin/sh\necho hi\n")                                           # no glob: magic
write("Makefile", "all:\n\techo hi\n")                                             # literal glob

# --- Content that says more than the name --------------------------------------------------------
write("figure.ps", "%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\nshowpage\n")  # EPS, priority 90
write("picture.xml", "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\" height=\"1\"/>\n")  # SVG, priority 80
write("pdf-named-as.txt", sample("document.pdf"))
write("jpeg-named-as.png", sample("photo.jpg"))
write("pdf-without-extension", sample("document.pdf"))

# --- Container siblings ---------------------------------------------------------------------------
def container(name, first_entry, first_data, rest=()):
    """A zip whose first entry is stored uncompressed, as ODF and iWork write it (magic looks at
    the first local header: its name at byte 30 and, for ODF, its data at byte 38)."""
    with zipfile.ZipFile(os.path.join(out, name), "w") as z:
        z.writestr(zipfile.ZipInfo(first_entry, date_time=(2026, 1, 2, 3, 4, 6)), first_data,
                   compress_type=zipfile.ZIP_STORED)
        for entry, data in rest:
            z.writestr(zipfile.ZipInfo(entry, date_time=(2026, 1, 2, 3, 4, 6)), data,
                       compress_type=zipfile.ZIP_DEFLATED)

iwa = [("Index/Metadata.iwa", b"\x00" * 16), ("preview.jpg", sample("photo.jpg"))]
container("budget.numbers", "Index/Document.iwa", b"\x00" * 32, iwa)
container("letter.pages", "Index/Document.iwa", b"\x00" * 32, iwa)
container("talk.key", "Index/Document.iwa", b"\x00" * 32, iwa)
container("old-budget.numbers", "index.xml", b"<ls:document/>", [])
container("old-letter.pages", "index.xml", b"<sl:document/>", [])
odf = [("content.xml", b"<office:document-content/>"), ("META-INF/manifest.xml", b"<manifest/>")]
for name, mime in [("report.odt", "application/vnd.oasis.opendocument.text"),
                   ("report-template.ott", "application/vnd.oasis.opendocument.text-template"),
                   ("sheet.ods", "application/vnd.oasis.opendocument.spreadsheet"),
                   ("sheet-template.ots", "application/vnd.oasis.opendocument.spreadsheet-template"),
                   ("letter.sxw", "application/vnd.sun.xml.writer"),
                   ("letter-template.stw", "application/vnd.sun.xml.writer.template"),
                   ("book.epub", "application/epub+zip")]:
    container(name, "mimetype", mime.encode(), odf)
container("comic.cbz", "page1.png", b"\x89PNG\r\n\x1a\n" + bytes(32), [])
container("archive.zip", "readme.txt", b"hello\n", [])
container("report-as.zip", "mimetype", b"application/vnd.oasis.opendocument.text", odf)  # ODF sub-class of zip

def mp4(brand):
    """The start of an MP4 file: an ftyp box with the given major brand, then a free box."""
    ftyp = b"ftyp" + brand + b"\x00\x00\x02\x00" + brand + b"isomiso2mp41"
    return struct.pack(">I", 4 + len(ftyp)) + ftyp + struct.pack(">I", 16) + b"free" + bytes(8)

write("song.m4a", mp4(b"M4A "))
write("ringtone.m4r", mp4(b"M4A "))
write("book.m4b", mp4(b"M4B "))
write("clip.mp4", mp4(b"isom"))

# --- Empty files: typed by name ----------------------------------------------------------------
for name in ["x.c", "a.c", "x.h", "x.el", "x.py", "x.java", "x.md", "x.txt", "x.pdf", "x.png",
             "x.jpg", "x.odt", "x.html", "x.m", "x.ogg", "x.desktop", "x.tar.gz", "x.json", "x.svg",
             "x.sh", "x.mo", "x.ram", "core", "Makefile.empty", "README", "empty", ".hidden"]:
    write(name, b"")
