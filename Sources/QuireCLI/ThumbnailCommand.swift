import ArgumentParser
import Quire
internal import QuireGIO
import QuireRenderService
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
            failure leaves nothing behind. Outputs are treated as cp treats them: a symbolic \
            link is followed (what it points to is replaced, the link kept), a device or FIFO is \
            written to, never replaced, `-` is standard output, and a directory or the input \
            itself is refused (exit status 73 or 64) before anything is written.

            With --batch PATH..., fills the freedesktop thumbnail cache instead \
            ($XDG_CACHE_HOME/thumbnails, default ~/.cache/thumbnails) for files and the \
            files directly in each directory (with -r, whole trees); --size then names flavors (normal, large, x-large, xx-large, all; \
            repeatable; default large). Current thumbnails and files that failed before and have \
            not changed are skipped. Rendering runs in long-lived worker processes with memory \
            and CPU limits, under bubblewrap when it is installed; a file that crashes or hangs \
            its worker is recorded as failed (a failure marker) and the batch goes on. Exit \
            status is 65 if any file failed, 130 if interrupted.

            Distributed runs: each task of a Slurm array job or a Kubernetes Indexed Job runs \
            --batch --shard auto (it takes its deterministic share of the files), usually with \
            --cache-dir on a shared file system and --summary FILE; a final step runs \
            --merge-summaries FILE... for the combined totals and failures (exit status 65 if a \
            file failed or a shard's summary is missing).

            Examples:
              quire thumbnail -s 256 report.pdf thumb.png     # the freedesktop contract
              quire thumbnail --batch -r Documents            # fill the shared cache for a folder
              quire thumbnail --batch -r --json Documents     # one JSON line per file
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
        if batchOptions.mergeSummaries && !batchOptions.batch {
            if arguments.isEmpty { throw ValidationError("Give the summary files (written with --batch --summary FILE) to --merge-summaries.") }
            return
        }
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
        if batchOptions.mergeSummaries && !batchOptions.batch {
            try SummaryMergeRun(json: batchOptions.json, files: arguments).run()
            return
        }
        if batchOptions.batch {
            try ThumbnailBatchRun(options: batchOptions, limits: limits, flavors: ThumbnailBatchOptions.flavors(sizes), arguments: arguments).run()
            return
        }
        try limits.applyMemoryLimit()
        let status = Self.writeSingle(
            input: RawArguments.path(input).bytes, output: RawArguments.path(output).bytes, size: size,
            password: password, maximumFileSize: try limits.maximumFileSize(), limits: try limits.renderLimits(),
            timeout: Int(batchOptions.timeout.rounded(.up)))
        if status != .ok { throw status.exitCode }
    }

    /// Writes the thumbnail of `input` (a path or a `file://` URI, as bytes) to `output`,
    /// reporting any failure as one line on standard error; returns the exit status. Shared by
    /// the parsed command and ``FastPathTable``'s contract line. Synchronous: one file, nothing to overlap.
    static func writeSingle(input: [UInt8], output: [UInt8], size: Int, password: String?,
                            maximumFileSize: Int64, limits: RenderLimits, timeout: Int) -> ExitStatus {
        let path: DocumentPath
        switch resolve(input) {
        case .success(let resolved): path = resolved
        case .failure(let status): return status
        }
        // The output is checked before any work (OutputFile: `-` is standard output, a link is
        // followed, a device or FIFO written to, a directory or the input itself refused).
        let outputPath = DocumentPath(bytes: output)
        do { try OutputFile.check(outputPath, inputs: [path]) } catch {
            return ExitStatus.reportStatus(error) ?? .cannotCreate
        }
        if OutputFile.isStandardOutput(outputPath) && Terminal.isTerminal(1) {
            Terminal.error("not writing PNG data to a terminal: give an output file or pipe the output")
            return .usage
        }
        // --timeout (shared with --batch): a single thumbnail gives up with status 75.
        return Watchdog.limiting(seconds: timeout, path: path) {
            do {
                let document = try Document(path: path, maximumFileSize: maximumFileSize, limits: limits, interpreters: CommandInterpreters.forDocuments)
                // A type without thumbnails is said as one ("cannot be thumbnailed (Java
                // class)"), not as the renderer's "cannot be previewed".
                if case .unsupported(let reason) = document.contentType.capabilities.thumbnail {
                    Terminal.error("\(path): \(reason)")
                    return .dataError
                }
                // Drawn by the render service in this process, as a batch's worker draws it
                // (the same request and answer, the freedesktop keys written in there).
                guard let uri = FileURI.uri(forPath: path.bytes) else {
                    Terminal.error("\(path): the path cannot be written as a file:// URI")
                    return .dataError
                }
                let service = RenderClient(inProcess: limits, interpreters: document.interpreters, software: QuireThumbnailsInfo.software)
                service.lend(document.file, contentType: document.contentType)
                let request = ThumbnailRequest(path: path.bytes, uri: uri, sizes: [size], maximumFileSize: maximumFileSize,
                                               password: password)
                switch try service.thumbnail(request) {
                case .rendered(_, _, _, let pngs):
                    guard let png = pngs[size] else { return .software }
                    Watchdog.settle()
                    try OutputFile.write(png, to: outputPath, permissions: 0o600, inputs: [path])
                    return .ok
                case .failed(let failure, _, _):
                    if let error = failure.underlying.error { throw error }
                    Terminal.error("\(path): \(failure.reason)")
                    return failure.kind == .encoding ? .software : .dataError
                }
            } catch {
                if let status = ExitStatus.reportStatus(error) { return status }
                Terminal.error("\(path): \(error)")
                return .software
            }
        }
    }

    enum Resolution {
        case success(DocumentPath)
        case failure(ExitStatus)
    }

    /// A path argument as raw bytes, or a `file:` URI decoded to its path by GLib
    /// (`FileURI.localPath(ofURI:)`). Either way `Thumb::URI` is the file's canonical URI, the
    /// one the batch and file managers name its cache entry by, however the URI was spelled.
    /// Remote URIs are refused with a message.
    static func resolve(_ argument: [UInt8]) -> Resolution {
        let text = String(decoding: argument, as: UTF8.self)
        if text.lowercased().hasPrefix("file:") {
            guard text.utf8.elementsEqual(argument), let path = FileURI.localPath(ofURI: text) else {
                Terminal.error("\(DocumentPath(bytes: argument)): not a local file URI (only file:// URIs on this machine are read)")
                return .failure(.noInput)
            }
            return .success(DocumentPath(bytes: path))
        }
        if let colon = text.firstIndex(of: ":"), text[..<colon].allSatisfy({ $0.isLetter }),
           text[text.index(after: colon)...].hasPrefix("//") {
            Terminal.error("\(DocumentPath(bytes: argument)): remote URIs are not fetched (only file:// URIs)")
            return .failure(.noInput)
        }
        return .success(DocumentPath(bytes: argument))
    }
}
