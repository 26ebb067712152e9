import ArgumentParser
import Quire

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
            """)

    @Option(name: .shortAndLong, help: ArgumentHelp("Bounding square in pixels (128, 256, 512, 1024…).", valueName: "size"))
    var size = 256

    @Option(name: .long, help: ArgumentHelp("Password for encrypted PDFs.", valueName: "password"))
    var password: String?

    @Option(name: .long, help: ArgumentHelp("Give up after this many seconds (exit status 75); 0 waits forever.", valueName: "seconds"))
    var timeout = 30

    @Argument(help: ArgumentHelp("The file: a path or a file:// URI.", valueName: "input"))
    var input: String

    @Argument(help: ArgumentHelp("Where to write the PNG.", valueName: "output"))
    var output: String

    func validate() throws {
        if timeout < 0 { throw ValidationError("--timeout takes a number of seconds (0 for none).") }
        if size < 1 || size > 4096 { throw ValidationError("SIZE must be between 1 and 4096.") }
    }

    func run() async throws {
        let (path, uri) = try Self.resolve(input)
        let outputPath = RawArguments.path(output)
        Watchdog.arm(seconds: timeout, path: path)
        do {
            let document = try Document(path: path)
            let thumbnail = try await document.thumbnail(size: size, uri: uri, password: password,
                                                          software: "Quire \(QuireVersion.string)")
            let png: [UInt8]
            do { png = try thumbnail.pngData() } catch {
                Terminal.error("\(path): \(error.description)")
                throw ExitStatus.software.exitCode
            }
            try OutputFile.write(png, to: outputPath, permissions: 0o600)
        } catch let error as InputError {
            Terminal.error(error.description)
            throw ExitStatus.of(error).exitCode
        } catch let error as DocumentError {
            Terminal.error(error.description)
            throw ExitStatus.of(error).exitCode
        } catch let error as OutputError {
            Terminal.error(error.description)
            throw ExitStatus.cannotCreate.exitCode
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
