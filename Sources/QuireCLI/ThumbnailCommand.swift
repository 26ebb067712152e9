import ArgumentParser
import Quire
import QuireThumbnails

struct ThumbnailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Write a freedesktop thumbnail (PNG) of a file.",
        discussion: """
            The freedesktop thumbnailer contract: Exec=quire thumbnail -s %s %u %o. INPUT is a \
            path or a file:// URI (percent-decoded). The output is an 8-bit RGBA, non-interlaced \
            PNG whose longest side equals SIZE (raster images smaller than SIZE keep their own \
            size), with tEXt Thumb::URI, Thumb::MTime, Thumb::Size, Thumb::Mimetype, Software, \
            and Thumb::Image::Width/Height or Thumb::Document::Pages where known. It is written \
            to a temporary file beside OUTPUT and renamed, so no reader sees half a PNG and a \
            failure leaves nothing behind.

            With --batch PATH..., fills the freedesktop thumbnail cache instead \
            ($XDG_CACHE_HOME/thumbnails, default ~/.cache/thumbnails) for files and, with -r, \
            directory trees; --size then names flavors (normal, large, x-large, xx-large, all; \
            repeatable; default large). Current thumbnails and files that failed before and have \
            not changed are skipped. Rendering runs in long-lived worker processes with memory \
            and CPU limits, under bubblewrap when it is installed; a file that crashes or hangs \
            its worker is recorded as failed (a failure marker) and the batch goes on. Exit \
            status is 65 if any file failed, 130 if interrupted.
            """)

    @Option(name: [.short, .customLong("size")], help: ArgumentHelp(
        "Bounding square in pixels (128, 256, 512, 1024…); with --batch a flavor (normal, large, x-large, xx-large, all), repeatable.",
        valueName: "size"))
    var sizes: [String] = []

    @OptionGroup var batchOptions: ThumbnailBatchOptions

    @OptionGroup(title: "Limits") var limits: LimitOptions

    /// The single-file size in pixels (default 256).
    var size: Int {
        guard let last = sizes.last else { return 256 }
        return Int(last) ?? ThumbnailFlavor(name: last)?.pixelSize ?? -1
    }

    @Option(name: .long, help: ArgumentHelp("Password for encrypted PDFs.", valueName: "password"))
    var password: String?

    @Argument(help: ArgumentHelp("INPUT (a path or a file:// URI) and OUTPUT (the PNG); with --batch, the files and directories.",
                                 valueName: "input output | path"))
    var arguments: [String] = []

    var input: String { arguments.first ?? "" }
    var output: String { arguments.count > 1 ? arguments[1] : "" }

    func validate() throws {
        try batchOptions.validateTimeout()
        if batchOptions.batch {
            if arguments.isEmpty { throw ValidationError("Give at least one file or directory to --batch.") }
            _ = try ThumbnailBatchOptions.flavors(sizes)
            try batchOptions.validateBatch()
            return
        }
        if arguments.count != 2 { throw ValidationError("Give INPUT and OUTPUT (or --batch PATH...).") }
        if sizes.count > 1 { throw ValidationError("Give one --size for a single thumbnail.") }
        if size < 1 || size > 4096 { throw ValidationError("SIZE must be between 1 and 4096.") }
    }

    func run() async throws {
        if batchOptions.batch {
            try ThumbnailBatchRun(options: batchOptions, limits: limits, flavors: ThumbnailBatchOptions.flavors(sizes), arguments: arguments).run()
            return
        }
        let (path, uri) = try Self.resolve(input)
        let outputPath = RawArguments.path(output)
        // --timeout (shared with --batch): a single thumbnail gives up with status 75.
        Watchdog.arm(seconds: Int(batchOptions.timeout.rounded(.up)), path: path)
        do {
            let document = try Document(path: path, maximumFileSize: try limits.maximumFileSize(),
                                        limits: try limits.renderLimits())
            let thumbnail = try await document.thumbnail(size: size, uri: uri, password: password,
                                                          software: "Quire \(QuireVersion.string)")
            let png: [UInt8]
            do { png = try thumbnail.pngData() } catch {
                Terminal.error("\(path): \(error.description)")
                throw ExitStatus.software.exitCode
            }
            try OutputFile.write(png, to: outputPath, permissions: 0o600)
        } catch {
            throw ExitStatus.report(error) ?? error
        }
    }

    /// A path argument as raw bytes, or a `file://` URI decoded to its path (the URI itself is
    /// kept for `Thumb::URI`).
    static func resolve(_ argument: String) throws -> (DocumentPath, String?) {
        if argument.lowercased().hasPrefix("file:") {
            guard let path = Thumbnail.path(fromFileURI: argument) else {
                Terminal.error("\(DocumentPath(argument)): not a local file URI (only file:// URIs on this machine are read)")
                throw ExitStatus.noInput.exitCode
            }
            return (path, argument)
        }
        if let colon = argument.firstIndex(of: ":"), argument[..<colon].allSatisfy({ $0.isLetter }),
           argument[argument.index(after: colon)...].hasPrefix("//") {
            Terminal.error("\(DocumentPath(argument)): remote URIs are not fetched (only file:// URIs)")
            throw ExitStatus.noInput.exitCode
        }
        return (RawArguments.path(argument), nil)
    }
}
