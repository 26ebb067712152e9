// swift-tools-version:6.0
import PackageDescription

// C libraries are wrapped at the edge: one system-library target per library
// (module map + shim header). Only Quire's wrapper modules import them.
let package = Package(
    name: "Quire",
    products: [
        .library(name: "Quire", targets: ["Quire"]),
        .library(name: "QuireTypes", targets: ["QuireTypes"]),
        .library(name: "QuireViewer", targets: ["QuireViewer"]),
        // poppler's Splash renderer (libpoppler-cpp) behind a C API, loaded by QuireRender with
        // dlopen on first use, so quire itself links neither it nor libpoppler-cpp.
        .library(name: "QuirePopplerSplash", type: .dynamic, targets: ["QuirePopplerSplash"]),
        .executable(name: "quire", targets: ["QuireCLI"]),
        .executable(name: "quire-look", targets: ["QuireLook"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // MARK: C wrappers
        .systemLibrary(
            name: "CGIO", path: "Sources/CGIO", pkgConfig: "gio-2.0",
            providers: [.apt(["libglib2.0-dev", "shared-mime-info"])]),
        // Loaded with dlopen on first use (see their shim.h): not linked, so `--version`,
        // `can-print` or a PDF thumbnail do not pay at start-up for what they do not use
        // (poppler, cairo, gdk-pixbuf, Ghostscript, librsvg, libarchive, Pango). No pkg-config:
        // it would link the library; the shims include the headers by their standard paths.
        .systemLibrary(
            name: "CPoppler", path: "Sources/CPoppler",
            providers: [.apt(["libpoppler-glib-dev"])]),
        .systemLibrary(
            name: "CCairo", path: "Sources/CCairo",
            providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(
            name: "CGdkPixbuf", path: "Sources/CGdkPixbuf",
            providers: [.apt(["libgdk-pixbuf-2.0-0"])]),
        .systemLibrary(
            name: "CRsvg", path: "Sources/CRsvg",
            providers: [.apt(["librsvg2-2"])]),
        .systemLibrary(
            name: "CGtkSourceViewLazy", path: "Sources/CGtkSourceViewLazy",
            providers: [.apt(["libgtksourceview-5-0"])]),
        .systemLibrary(
            name: "CPangoCairo", path: "Sources/CPangoCairo",
            providers: [.apt(["libpangocairo-1.0-0"])]),
        .systemLibrary(
            name: "CFontconfig", path: "Sources/CFontconfig",
            providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(
            name: "CGStreamer", path: "Sources/CGStreamer",
            providers: [.apt(["libgstreamer1.0-0", "libgstreamer-plugins-base1.0-0"])]),
        .systemLibrary(
            name: "CArchive", path: "Sources/CArchive",
            providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CDjVuLibre", path: "Sources/CDjVuLibre",
            providers: [.apt(["libdjvulibre-dev"])]),
        .systemLibrary(
            name: "CLibRaw", path: "Sources/CLibRaw",
            providers: [.apt(["libraw-dev"])]),
        .systemLibrary(
            name: "CHEIF", path: "Sources/CHEIF",
            providers: [.apt(["libheif-dev"])]),
        .systemLibrary(
            name: "CJXL", path: "Sources/CJXL",
            providers: [.apt(["libjxl-dev"])]),
        .systemLibrary(
            name: "CAVIF", path: "Sources/CAVIF",
            providers: [.apt(["libavif-dev"])]),
        .systemLibrary(
            name: "CGMime", path: "Sources/CGMime",
            providers: [.apt(["libgmime-3.0-dev"])]),
        .systemLibrary(
            name: "CCmarkGFM", path: "Sources/CCmarkGFM",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        .systemLibrary(
            name: "CSpectre", path: "Sources/CSpectre",
            providers: [.apt(["libspectre-dev"])]),
        .systemLibrary(
            name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        // zlib: inflating PDF image streams row by row (thumbnails of pages that are one large image).
        .systemLibrary(
            name: "CZlib", path: "Sources/CZlib",
            providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CQPDF", path: "Sources/CQPDF",
            providers: [.apt(["libqpdf-dev"])]),
        // NSS and its CMS encoder (`quire sign`): loaded on first use, declarations in the shim.
        .systemLibrary(
            name: "CNSS", path: "Sources/CNSS",
            providers: [.apt(["libnss3"])]),
        // GTK 4: linked only by the quire-look executable (the Quick Look window), never by quire.
        .systemLibrary(
            name: "CGtk", path: "Sources/CGtk", pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]),
        // GtkSourceView 5: the window's text and source view (syntax highlighting); quire-look only.
        .systemLibrary(
            name: "CGtkSourceView", path: "Sources/CGtkSourceView", pkgConfig: "gtksourceview-5",
            providers: [.apt(["libgtksourceview-5-dev"])]),
        // libadwaita 1.2: the window's status pages (errors, the password page) and toasts; quire-look only.
        .systemLibrary(
            name: "CAdwaita", path: "Sources/CAdwaita", pkgConfig: "libadwaita-1",
            providers: [.apt(["libadwaita-1-dev"])]),
        // The function table for Sources/QuirePopplerSplash's shim library (dlopened; links libdl only).
        .systemLibrary(
            name: "CPopplerSplash", path: "Sources/CPopplerSplash",
            providers: [.apt(["libpoppler-cpp-dev"])]),
        .systemLibrary(
            name: "CCUPS", path: "Sources/CCUPS",
            providers: [.apt(["libcups2-dev"])]),
        // LibreOfficeKit: headers only; the office is loaded from /usr/lib/libreoffice at run time.
        .systemLibrary(
            name: "CLibreOfficeKit", path: "Sources/CLibreOfficeKit",
            providers: [.apt(["libreofficekit-dev"])]),
        // libc calls the Glibc module leaves out (pipe2, prctl, memmem, O_TMPFILE).
        .systemLibrary(name: "CQuireSystem", path: "Sources/CQuireSystem"),

        // MARK: C++ shim (its own shared object; see CPopplerSplash)
        // C++ only, so no Swift runtime: without the flags SwiftPM's swiftc link adds swiftrt.o,
        // the toolchain's libswiftCore.so as NEEDED and its directory (outside /usr) as RUNPATH —
        // a second Swift runtime mapped into quire at each `info` (~2 M instructions, ~80 page
        // faults), and a shim that cannot load where the toolchain is not (GNOME's sandbox, a
        // machine with only `make install`'s files), where Quire silently fell back to
        // poppler-glib. `-static-stdlib` only swaps the runtime's -l for static archives that
        // nothing references; StartupCostTests checks the result.
        .target(
            name: "QuirePopplerSplash", path: "Sources/QuirePopplerSplash",
            linkerSettings: [
                .linkedLibrary("poppler-cpp"),
                .unsafeFlags(["-nostartfiles", "-no-stdlib-rpath", "-static-stdlib"]),
            ]),

        // MARK: Swift modules
        // The one module that imports CGIO: content types, file URIs, checksums, the default
        // application, and the D-Bus connection and main loop the thumbnail service uses.
        .target(name: "QuireGIO", dependencies: ["CGIO"]),
        // The system layer: Errno, FileDescriptor, atomic replacement, threads, paths.
        .target(name: "QuireSystem", dependencies: ["CQuireSystem"]),
        .target(name: "QuireTypes", dependencies: ["QuireSystem", "QuireGIO"]),
        // Print composition as arithmetic: paper sizes, pages per side, booklet order, odd/even,
        // reverse. No C, no documents: QuireRender draws what it says, QuirePrint reads lp's words.
        .target(name: "QuireSheets"),
        .target(
            name: "QuireRender",
            dependencies: ["QuireTypes", "QuireSheets", "CPoppler", "CGdkPixbuf", "CCairo", "CRsvg", "CPangoCairo",
                           "CArchive", "CSpectre", "CPNG", "CQPDF", "CPopplerSplash", "CZlib", "CFontconfig", "CGStreamer",
                           "CLibreOfficeKit", "CSQLite", "CCmarkGFM", "CDjVuLibre", "CLibRaw", "CJXL", "CAVIF", "CHEIF", "CGMime", "CGtkSourceViewLazy"]),
        .target(name: "QuirePrint", dependencies: ["QuireTypes", "QuireSheets", "CCUPS"]),
        // The render service: one worker protocol and client for every helper process that
        // renders (batch thumbnails, the viewers' documents and pages), the worker's loop and
        // the one place its command line and sandbox are built.
        .target(name: "QuireRenderService", dependencies: ["QuireRender", "QuireSheets", "QuireTypes", "QuireSystem", "QuireGIO", "QuireArguments"]),
        // QuireBuildVersion.string (the thumbnails' Software and failure folder) from scripts/version.sh.
        .target(name: "QuireThumbnails", dependencies: ["QuireTypes", "QuireRender", "QuireRenderService", "QuireGIO"],
                plugins: [.plugin(name: "QuireVersion")]),
        .target(name: "Quire", dependencies: ["QuireTypes", "QuireRender", "QuireRenderService", "QuirePrint"]),
        // Digital signatures with a certificate from an NSS database (`quire sign`): in the
        // process that holds the key, never in the render worker.
        .target(name: "QuireSigning", dependencies: ["QuireRender", "QuireTypes", "CNSS"]),
        .target(name: "QuireIntegration", dependencies: ["Quire", "QuireGIO"]),
        // Sharing files: mail through the desktop portal (descriptors) or xdg-email, devices
        // through KDE Connect or GSConnect on the session bus. Used by the window and by quire share.
        .target(name: "QuireShare", dependencies: ["QuireTypes", "QuireGIO", "QuireSystem"]),
        // The viewer model under `quire look`'s front-ends (terminal now, GTK window later):
        // files, page, zoom, card, actions with reasons, resume state, print sheet. No UI code.
        .target(name: "QuireViewer", dependencies: ["Quire", "QuireRenderService", "QuireGIO", "QuireSigning"]),
        .target(name: "QuireService", dependencies: ["Quire", "QuireThumbnails", "QuireRenderService", "QuireGIO"]),
        // The terminal viewer's input parsing (keys, answers to capability queries): pure
        // functions over untrusted bytes, apart from the session so they can be fuzzed.
        .target(name: "QuireTerminal"),
        // The terminal viewer (`quire look` without a display): the second front-end on the
        // viewer model, beside the window (QuireLook).
        .target(name: "QuireTerminalViewer", dependencies: ["QuireViewer", "QuireRenderService", "QuireTerminal", "Quire", "QuireSystem", "QuireGIO"]),
        // Command lines described as forms (command word, options with their value kinds,
        // operands as bytes) and read from argv: quire's pre-parser in front of
        // swift-argument-parser and quire-look's whole command line. Standard library only: both
        // executables start with it, and quire-look must not link the argument parser or the CLI.
        .target(name: "QuireArguments"),
        .executableTarget(
            name: "QuireCLI",
            dependencies: ["Quire", "QuireThumbnails", "QuireRenderService", "QuireIntegration", "QuireService", "QuireViewer", "QuireTerminal", "QuireTerminalViewer", "QuireArguments", "QuireShare", "QuireSigning", "SanitizerSupport",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            // QuireBuildVersion.string (`quire --version`) from scripts/version.sh, as `make deb` names the package.
            plugins: [.plugin(name: "QuireVersion")]),
        .plugin(name: "QuireVersion", capability: .buildTool(), path: "Plugins/QuireVersion"),

        // The Quick Look window (`quire look` runs it when there is a display): a GTK 4 front-end
        // on the same viewer model as the terminal viewer. Installed to libexec/quire/.
        .executableTarget(name: "QuireLook", dependencies: ["QuireViewer", "QuireRenderService", "Quire", "QuireGIO", "QuireSystem", "QuireArguments", "QuireShare", "CGtk", "CGtkSourceView", "CAdwaita"]),

        // MARK: Sample programs (built with the package, using only the public API)
        .executableTarget(name: "info-card", dependencies: ["Quire"], path: "Samples/InfoCard"),
        .executableTarget(name: "thumbnail-sample", dependencies: ["Quire"], path: "Samples/Thumbnail"),
        // bench/compose-bench.sh's helper: the print sheet's preview through the render worker.
        .executableTarget(name: "compose-bench", dependencies: ["QuireRenderService", "QuireSheets", "QuireTypes"], path: "bench/ComposeBench"),

        // MARK: Fuzz targets (make fuzz builds them with -sanitize=fuzzer; plain builds replay inputs)
        .executableTarget(name: "fuzz-sniff", dependencies: ["QuireTypes", "FuzzDriver"], path: "Fuzz/SniffFuzzer"),
        .executableTarget(name: "fuzz-open", dependencies: ["Quire", "FuzzDriver"], path: "Fuzz/OpenFuzzer"),
        .executableTarget(name: "fuzz-thumbnail", dependencies: ["Quire", "QuireThumbnails", "QuireRenderService", "FuzzDriver"], path: "Fuzz/ThumbnailFuzzer"),
        .executableTarget(name: "fuzz-print-options", dependencies: ["QuirePrint", "QuireSheets", "FuzzDriver"], path: "Fuzz/PrintOptionsFuzzer"),
        .executableTarget(name: "fuzz-desktop-entry", dependencies: ["Quire", "QuireIntegration", "FuzzDriver"], path: "Fuzz/DesktopEntryFuzzer"),
        .executableTarget(name: "fuzz-previewer-uri", dependencies: ["QuireGIO", "QuireTypes", "FuzzDriver"], path: "Fuzz/PreviewerURIFuzzer"),
        .executableTarget(name: "fuzz-terminal-replies", dependencies: ["QuireTerminal", "FuzzDriver"], path: "Fuzz/TerminalRepliesFuzzer"),
        .executableTarget(name: "fuzz-terminal-escaping", dependencies: ["QuireTypes", "FuzzDriver"], path: "Fuzz/TerminalEscapingFuzzer"),

        // MARK: Tests
        .target(name: "SanitizerSupport"),
        .target(name: "FuzzDriver", dependencies: ["SanitizerSupport"], path: "Fuzz/Driver"),
        .target(name: "QuireTestSupport", path: "Tests/Support/QuireTestSupport"),
        .testTarget(name: "QuireTypesTests", dependencies: ["QuireTypes", "QuireTestSupport"]),
        .testTarget(name: "QuireRenderTests", dependencies: ["QuireRender", "QuireGIO", "QuireSystem", "QuireTestSupport"]),
        .testTarget(name: "QuireTests", dependencies: ["Quire", "QuireRenderService", "QuireTestSupport"]),
        .testTarget(name: "QuireIntegrationTests", dependencies: ["QuireIntegration", "QuireCLI", "QuireTestSupport"]),
        .testTarget(name: "QuireCLITests", dependencies: ["QuireCLI", "QuireTerminal", "QuireTerminalViewer", "QuireRenderService", "QuireArguments", "QuireSigning", "QuireTestSupport"]),
        .testTarget(name: "QuireArgumentsTests", dependencies: ["QuireArguments"]),
        .testTarget(name: "QuireSheetsTests", dependencies: ["QuireSheets"]),
        .testTarget(name: "QuirePrintTests", dependencies: ["QuirePrint", "QuireSheets", "Quire", "QuireTestSupport"]),
        .testTarget(name: "QuireServiceTests", dependencies: ["QuireCLI", "QuireThumbnails", "QuireTypes", "QuireTestSupport"]),
        .testTarget(name: "QuireViewerTests", dependencies: ["QuireViewer", "QuireRenderService", "Quire", "QuireTestSupport"]),
        .testTarget(name: "QuireLookTests", dependencies: ["Quire", "QuireTestSupport"]),
        .testTarget(name: "QuireThumbnailsTests", dependencies: ["QuireThumbnails", "QuireRenderService", "QuireRender", "QuireSheets", "QuireTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
