#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import QuireRender
import QuireRenderService
import QuireSigning
import QuireSystem
import QuireTypes
import QuireViewer

struct SignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a PDF with a certificate from an NSS database.",
        discussion: """
            Adds a digital signature to the PDF (a detached PKCS#7 signature, adbe.pkcs7.detached, \
            with SHA-256 and the certificate's chain), made with the certificate called NICK in the \
            NSS database Firefox, Thunderbird and Okular share (~/.pki/nssdb, or --nss-dir). The \
            signature is a new signature field on page --page (1 by default): invisible, or with \
            --at X,Y a box of --size W,H points (200,52 by default) whose top left corner is X,Y \
            points from the top left of the page as shown, saying who signed, when and --reason; \
            with --drawn, the signature drawn with Sign in quire look's Markup (kept in \
            $XDG_DATA_HOME/quire/signatures/) is shown in it, above who signed and when. \
            The PDF is saved as an incremental update: its original bytes stay first and \
            unchanged, so signatures it already has stay valid. The file is read and the update \
            written by a sandboxed render worker that never sees the key; this process digests \
            the bytes and signs them. The result is put in place atomically (-o OUT, or \
            --in-place keeping the file's mode); nothing is written on any error. \
            --list-certificates lists the database's certificates that can sign. \
            Exits 65 for a damaged or encrypted PDF, or one whose permissions forbid signing; 66 \
            when the file cannot be read; 69 when NSS is not installed; 73 when the output \
            cannot be written; 77 when the key database needs a password (--password-file) or \
            the one given is wrong; 66 with --drawn when no drawn signature is kept; 78 when the \
            database or the certificate is not there.

            Examples:
              quire sign --list-certificates
              quire sign contract.pdf --certificate "Ada Lovelace" -o signed.pdf
              quire sign contract.pdf --certificate ada --page 2 --at 350,700 --reason "I agree" --in-place
            """)

    @Argument(help: ArgumentHelp("The PDF to sign.", valueName: "file"))
    var file: String?

    @Option(name: .long, help: ArgumentHelp("The nickname of the certificate to sign with.", valueName: "nick"))
    var certificate: String?

    @Flag(name: .customLong("list-certificates"), help: "List the nicknames of the certificates that can sign, and exit.")
    var listCertificates = false

    @Option(name: .customLong("nss-dir"), help: ArgumentHelp("The NSS database's folder (default: ~/.pki/nssdb).", valueName: "dir"))
    var nssDirectory: String?

    @Option(name: .customLong("password-file"), help: ArgumentHelp("Read the key database's password from the first line of this file.",
                                                                   valueName: "file"))
    var passwordFile: String?

    @Option(name: .long, help: ArgumentHelp("The page the signature goes on (1 is the first).", valueName: "n"))
    var page = 1

    @Option(name: .long, help: ArgumentHelp("Show the signature in a box whose top left is X,Y points from the page's top left.",
                                            valueName: "x,y"))
    var at: String?

    @Option(name: .long, help: ArgumentHelp("The shown box's width and height in points (with --at).", valueName: "w,h"))
    var size: String?

    @Flag(name: .long, help: "Show the signature drawn with Sign in quire look's Markup in the box, above who signed (with --at).")
    var drawn = false

    @Option(name: .long, help: ArgumentHelp("Why it is signed, saved in the signature.", valueName: "text"))
    var reason: String?

    @Option(name: .long, help: ArgumentHelp("The new signature field's name (default: Signature1, or the next free number).",
                                            valueName: "name"))
    var field: String?

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Save the signed PDF here.", valueName: "file"))
    var output: String?

    @Flag(name: .customLong("in-place"), help: "Save the signed PDF over the file itself.")
    var inPlace = false

    func validate() throws {
        if listCertificates {
            if file != nil || certificate != nil || output != nil || inPlace {
                throw ValidationError("--list-certificates takes no file, --certificate, -o or --in-place.")
            }
            return
        }
        guard file != nil else { throw ValidationError("Give the PDF to sign.") }
        guard certificate != nil else { throw ValidationError("Give --certificate NICK (quire sign --list-certificates lists them).") }
        if (output == nil) == !inPlace { throw ValidationError("Give one of -o FILE or --in-place to save the signed PDF.") }
        if page < 1 { throw ValidationError("--page counts from 1, not \(page).") }
        if let at, Self.pair(at) == nil { throw ValidationError("--at takes X,Y in points, not \(at.debugDescription).") }
        if let size {
            guard at != nil else { throw ValidationError("--size goes with --at.") }
            guard let pair = Self.pair(size), pair.0 >= 8, pair.1 >= 8, pair.0 <= 14_400, pair.1 <= 14_400 else {
                throw ValidationError("--size takes W,H in points, each 8 to 14400, not \(size.debugDescription).")
            }
        }
        if drawn, at == nil { throw ValidationError("--drawn goes with --at.") }
        if let field, field.isEmpty || field.contains(".") { throw ValidationError("--field cannot be empty or hold a full stop.") }
    }

    func run() async throws {
        let database: CertificateDatabase
        do {
            guard let directory = nssDirectory.map({ String(decoding: RawArguments.path($0).bytes, as: UTF8.self) })
                    ?? CertificateDatabase.defaultDirectory else {
                throw SigningError(.database, "no home folder to find ~/.pki/nssdb in: give --nss-dir")
            }
            database = try CertificateDatabase(directory: directory, password: try passwordFile.map(Self.password(from:)))
        } catch let error as SigningError {
            throw Self.fail(error)
        }
        if listCertificates {
            for name in database.nicknames() { Terminal.out(name + "\n") }
            return
        }
        let signing: SigningCertificate
        do { signing = try database.certificate(certificate!) } catch { throw Self.fail(error) }
        let path = RawArguments.path(file!)
        let original: InputFile
        do { original = try InputFile(path: path) } catch { throw ExitStatus.report(error)! }
        var box: PageAnnotation.Box?
        if let at, let origin = Self.pair(at) {
            let extent = size.flatMap(Self.pair) ?? SignatureField.defaultSize
            box = PageAnnotation.Box(x: origin.0, y: origin.1, width: extent.0, height: extent.1)
        }
        var ink: [[PageAnnotation.Point]] = []
        if drawn, let box {
            guard let kept = SignatureStore.standard().load() else {
                Terminal.error("no drawn signature is kept (\(SignatureStore.standard().path)): draw one with Sign in quire look's Markup")
                throw ExitStatus.noInput.exitCode
            }
            ink = kept.fitted(in: box, share: SignatureField.inkShare)
        }
        let time = Int64(Glibc.time(nil))
        let field = SignatureField(name: field, page: page - 1, box: box, signer: signing.commonName, reason: reason, time: time, ink: ink)
        let request = DocumentRequest(path: path, maximumFileSize: max(original.size, 1))
        let client = RenderClient(command: WorkerCommand(executable: ProcessControl.ownExecutable), timeout: 120)
        defer { client.stop() }
        let update: PDFUpdate
        do { update = try client.saveChanges(request, DocumentChanges(signature: field)) } catch {
            throw FormCommand.fail(error, path: path)
        }
        let signed: PDFUpdate
        do { signed = try PDFSigner.sign(update, original: original, certificate: signing, time: time) } catch {
            throw Self.fail(error, path: path)
        }
        do {
            try DocumentUpdateWriter.write(signed, original: original, to: output.map(RawArguments.path))
        } catch {
            throw ExitStatus.report(error)!
        }
    }

    /// "X,Y" as two finite numbers.
    static func pair(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = Double(parts[0].filter { $0 != " " }),
              let second = Double(parts[1].filter { $0 != " " }), first.isFinite, second.isFinite else { return nil }
        return (first, second)
    }

    /// The first line of a password file.
    static func password(from file: String) throws -> String {
        let bytes: [UInt8]
        do {
            let input = try InputFile(path: RawArguments.path(file), maximumSize: 1 << 16)
            bytes = try input.read(upTo: Int(input.size))
        } catch {
            throw ExitStatus.report(error)!
        }
        return String(decoding: bytes.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
    }

    /// One line for a signing problem; the exit status.
    static func fail(_ error: SigningError, path: DocumentPath? = nil) -> ExitCode {
        Terminal.error((path.map { "\($0): " } ?? "") + error.description)
        switch error.kind {
        case .unavailable: return ExitStatus.unavailable.exitCode
        case .database, .certificate: return ExitStatus.configuration.exitCode
        case .password: return ExitStatus.noPermission.exitCode
        case .document: return ExitStatus.dataError.exitCode
        case .signing: return ExitStatus.software.exitCode
        }
    }
}
