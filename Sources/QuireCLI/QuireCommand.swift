import ArgumentParser

struct QuireCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quire",
        abstract: "Tell what a document is, preview it, thumbnail it and print it.",
        discussion: """
            Quire detects file types with shared-mime-info, renders previews and thumbnails with \
            poppler, cairo and gdk-pixbuf, and prints through CUPS.

            Exit status follows sysexits(3): 0 success, 64 usage error, 65 bad data (damaged or \
            password-protected document, or a type Quire cannot handle), 66 input file or folder \
            missing, or a folder where a file is needed, 69 a service is unavailable (no printer, \
            no print server, a missing engine), 70 internal error, 73 output cannot be created, \
            74 I/O error, 75 a time limit (--timeout) or a file that changed while it was read, \
            77 not permitted (the print server refused the request, or a key's password is \
            missing or wrong), 78 a configuration that cannot work (quire integrate, quire \
            sign's certificate database), 130 interrupted (Ctrl-C).
            """,
        version: QuireVersion.string,
        subcommands: [InfoCommand.self, PreviewCommand.self, ThumbnailCommand.self, LookCommand.self, ActionsCommand.self,
                      CanPrintCommand.self, PrintCommand.self, ShareCommand.self, FormCommand.self, SignCommand.self, PrintersCommand.self, JobsCommand.self,
                      JobCommand.self, CancelCommand.self, ReleaseCommand.self, IntegrateCommand.self,
                      ThumbnailerServiceCommand.self])
}

enum QuireVersion {
    /// scripts/version.sh's answer at build time (Plugins/QuireVersion): the tag, or git describe's
    /// commits since it, in Debian's spelling; `make deb` names the package with the same string.
    static let string = QuireBuildVersion.string
}
