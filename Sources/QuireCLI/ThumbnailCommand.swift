import ArgumentParser

/// `quire thumbnail`: `--batch PATH...` fills the freedesktop thumbnail cache.
struct ThumbnailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Make thumbnails: fill the freedesktop thumbnail cache with --batch.",
        discussion: """
            With --batch, every PATH (a file, or with -r a directory tree) gets thumbnails in \
            $XDG_CACHE_HOME/thumbnails (default ~/.cache/thumbnails), where file managers find \
            them. Files whose thumbnails are current are skipped, and so are files that failed \
            before and have not changed. Rendering runs in long-lived worker processes with \
            memory and CPU limits, under bubblewrap when it is installed; a file that crashes or \
            hangs its worker is recorded as failed and the batch goes on. Exit status is 65 if \
            any file failed, 130 if interrupted, 0 otherwise.
            """)

    @OptionGroup var batchOptions: ThumbnailBatchOptions

    @Argument(help: ArgumentHelp("Files or directories.", valueName: "path"))
    var paths: [String] = []

    func validate() throws {
        guard batchOptions.batch else { throw ValidationError("Use --batch PATH... to fill the thumbnail cache.") }
        if paths.isEmpty { throw ValidationError("Give at least one file or directory.") }
        try batchOptions.validateBatch()
    }

    func run() throws {
        try ThumbnailBatchRun(options: batchOptions, arguments: paths).run()
    }
}
