#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import CLibreOfficeKit
import FoundationEssentials
import QuireSystem
import QuireTypes
import Synchronization

/// The process's one LibreOffice, through LibreOfficeKit: loaded from the installed office on
/// the first office document and kept warm for every document after it (an office cannot be
/// initialised twice in a process; a render worker is recycled instead).
///
/// Private and inert: its user profile is a throw-away directory of its own (never the user's
/// `~/.config/libreoffice`), written before the office starts with macros disabled, no lock
/// files beside documents, no recalculation or link updates on load and untrusted links
/// blocked; LibreOfficeKit itself loads documents with macro execution off. Inside a render
/// worker, bubblewrap also takes the network away, so nothing a document links to is fetched.
///
/// It lives in one `Mutex` (``office``) and is used only inside it, one call at a time
/// (LibreOffice is one big state machine); what other threads read of it (documents converted,
/// whether it runs) is kept beside it in atomics.
final class OfficeKit {
    private let kit: UnsafeMutablePointer<LibreOfficeKit>
    /// The private profile and conversion directory (removed at exit).
    let directory: String
    /// Documents this office has loaded.
    private(set) var documentsConverted = 0
    private var counter = 0
    /// Documents loaded and not yet exported (a viewer's, page 1 shown first).
    private var unexported: [WeakOfficeDocument] = []
    /// Documents kept open between office calls, by their ``OfficeDocument/ID``.
    private var documents: [Int: OfficeDocument] = [:]
    private var lastDocument = 0

    private init(kit: UnsafeMutablePointer<LibreOfficeKit>, directory: String) {
        self.kit = kit
        self.directory = directory
    }

    // The shared office is never released (LibreOffice cannot be shut down and started again);
    // this is for completeness of ownership.
    deinit { kit.pointee.pClass.pointee.destroy(kit) }

    /// The office of this process, started on first use, or why it cannot start; used only
    /// under this lock, one call at a time, from whichever thread renders.
    private static let office = Mutex<Result<OfficeKit, DocumentError>?>(nil)
    private static let converted = Atomic<Int>(0)
    private static let running = Atomic<Bool>(false)

    /// How many documents this process's office has converted (0 before it started): the render
    /// worker recycles itself after a number of them. Read without waiting for a conversion.
    static var documentsConvertedInProcess: Int { converted.load(ordering: .relaxed) }

    /// Whether this process has started an office (it then holds hundreds of megabytes).
    static var isRunningInProcess: Bool { running.load(ordering: .relaxed) }

    /// Runs `body` with the process's office, starting it on first use.
    static func withOffice<R>(_ path: DocumentPath, _ body: (OfficeKit) throws(DocumentError) -> sending R) throws(DocumentError) -> sending R {
        try office.withLock { (state) throws(DocumentError) -> R in
            if state == nil {
                state = start()
                if case .success? = state { running.store(true, ordering: .relaxed) }
            }
            switch state! {
            case .failure(let error):
                throw DocumentError(kind: error.kind, path: path, reason: error.reason)
            case .success(let office):
                return try body(office)
            }
        }
    }

    private static func start() -> Result<OfficeKit, DocumentError> {
        let program = OfficeInstallation.programDirectory
        guard OfficeInstallation.isInstalled else {
            return .failure(DocumentError(kind: .unsupported, path: nil,
                                          reason: "LibreOffice is not installed (\(OfficeInstallation.packageHint))"))
        }
        var base = (getenv("TMPDIR").map { String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self) }).flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        // A TMPDIR the process cannot write (a sandbox that shows only its own /tmp, as GNOME's
        // thumbnail factory's does, with the user's TMPDIR inherited): /tmp, for LibreOffice too.
        if base != "/tmp", access(base, W_OK | X_OK) != 0, access("/tmp", W_OK | X_OK) == 0 {
            base = "/tmp"
            setenv("TMPDIR", base, 1)
        }
        OfficeKitCleanup.removeStale(in: base)
        var template = Array((base + "/\(OfficeKitCleanup.prefix)\(getpid())-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            return .failure(DocumentError(kind: .input, path: nil,
                                          reason: "cannot create a private LibreOffice profile in \(base) (\(Errno.current))"))
        }
        let directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            try FileManager.default.createDirectory(atPath: directory + "/profile/user", withIntermediateDirectories: true)
            // LibreOffice's own temporary files (lu*.tmp) go into the private directory too (its
            // Temp path, set in the profile: not TMPDIR, which other threads may be reading), so
            // removing the directory leaves nothing behind.
            try FileManager.default.createDirectory(atPath: directory + "/tmp", withIntermediateDirectories: false)
            let settings = profileSettings(temporaryFiles: PercentEncoding.fileURL(Array((directory + "/tmp").utf8)),
                                           productVersion: productVersion(program: program))
            try atomicReplace(path: directory + "/profile/user/registrymodifications.xcu",
                              contents: Array(settings.utf8))
        } catch {
            return .failure(DocumentError(kind: .input, path: nil, reason: "cannot write a private LibreOffice profile (\(error))"))
        }
        OfficeKitCleanup.register(directory)
        // LibreOffice reads a configuration layer from dconf (Debian builds it with dconf), and
        // dconf writes $XDG_RUNTIME_DIR/dconf/user and may call its service over D-Bus: an empty
        // dconf profile gives it no database, so the user's session is neither read nor touched.
        // (Set once, before the office starts; nothing else in Quire reads it.)
        setenv("DCONF_PROFILE", "/dev/null", 1)
        // Inside GNOME's thumbnail sandbox (only /usr shown): Debian's configuration, in /etc,
        // is hidden; the packages' own copy under /usr is read instead (OfficeInstallation), and
        // fontconfig gets the configuration installed beside quire (as for Quire's own text).
        if case .packaged(let layers) = OfficeInstallation.configuration {
            setenv("CONFIGURATION_LAYERS", layers, 1)
        }
        FontconfigFallback.applyIfNeeded()
        let before = Set((try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [])
        // Office writes its chatter to standard output and error: both are pointed at /dev/null
        // during office calls (the render worker also moves its protocol off descriptor 1, for
        // anything the office's own threads print later).
        let kit: UnsafeMutablePointer<LibreOfficeKit>? = StandardOutputDiversion.run {
            quire_lok_init(program, PercentEncoding.fileURL(Array((directory + "/profile").utf8)))
        }
        // LibreOffice makes its own temporary directories (lu<pid>….tmp) in TMPDIR as it starts:
        // those that appeared, named for this process, are removed with the private directory.
        let ownPrefix = "lu\(getpid())"
        let temporary = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        for name in temporary where name.hasPrefix(ownPrefix) && name.hasSuffix(".tmp") && !before.contains(name) {
            OfficeKitCleanup.register(base + "/" + name)
        }
        guard let kit else {
            return .failure(DocumentError(kind: .unsupported, path: nil,
                                          reason: "LibreOffice in \(program) could not be started"))
        }
        OfficeKitCleanup.endBeforeOfficeDestructors()
        return .success(OfficeKit(kit: kit, directory: directory))
    }

    /// Converts the document at `file` to PDF in the office's private directory and returns the
    /// PDF opened (its name already removed: nothing is left behind).
    func convertToPDF(_ file: InputFile, password: String?) throws(DocumentError) -> InputFile {
        let document = try load(file, password: password)
        defer { document.close() }
        return try exportPDF(document)
    }

    /// Loads the document at `file` (macros never run; a password asked for is given once).
    /// The caller holds the office (``withOffice(_:_:)``) and closes the document with it.
    func load(_ file: InputFile, password: String?) throws(DocumentError) -> OfficeDocument {
        // LibreOffice 7.4 crashes exporting a document after another document, loaded while it
        // was open, has been closed (its PDF filter takes the closed document's window for the
        // focus window): a document still waiting for its export is exported now, before the
        // next one loads, and keeps its PDF for later.
        unexported.removeAll { $0.document?.handle == nil }
        for waiting in unexported.compactMap(\.document) {
            waiting.exported = Result { () throws(DocumentError) in try export(waiting) }
        }
        unexported = []
        let source = PercentEncoding.fileURL(Self.absolute(file.path.bytes))
        var state = quire_lok_password_state(kit: nil, password: nil, asked: 0, dialogs: 0)
        let loaded: OpaquePointer? = (password ?? "").withCString { passwordPointer in
            withUnsafeMutablePointer(to: &state) { statePointer in
                statePointer.pointee.password = password == nil ? nil : passwordPointer
                quire_lok_watch_passwords(kit, statePointer)
                defer { quire_lok_unwatch_passwords(kit) }   // the state lives only for this load
                return StandardOutputDiversion.run {
                    OpaquePointer(quire_lok_load(kit, source, Self.loadOptions))
                }
            }
        }
        guard let loaded else {
            let message = lastError() ?? "LibreOffice could not open it"
            if state.asked > 0 {
                throw DocumentError(kind: .passwordRequired, path: file.path,
                                    reason: password == nil ? "the document is password-protected"
                                        : "the password is not correct for this document",
                                    remedy: password == nil ? .password : nil)
            }
            if state.dialogs > 0 {
                throw DocumentError(kind: .damaged, path: file.path,
                                    reason: "not a readable office document (LibreOffice asks how to import it, as it does for a file it takes for plain text)")
            }
            throw DocumentError(kind: .damaged, path: file.path, reason: "not a readable office document (\(message))")
        }
        documentsConverted += 1
        Self.converted.store(documentsConverted, ordering: .relaxed)
        OfficeKitCleanup.endBeforeOfficeDestructors()
        let document = OfficeDocument(UnsafeMutablePointer<LibreOfficeKitDocument>(loaded), path: file.path)
        unexported.append(WeakOfficeDocument(document))
        return document
    }

    /// How every document is loaded. `Batch=true`: any dialog LibreOffice opens while loading
    /// is cancelled at once (LibreOfficeKit's silent dialog mode). Without it, a load that asks
    /// a question no one answers waits forever: a fuzzed .xls that LibreOffice's type detection
    /// takes for plain text opens Calc's Text Import dialog ("TextImportCsvDialog", seen as a
    /// LOK_CALLBACK_JSDIALOG) and the load waited out the worker's time limit, where
    /// `soffice --convert-to` (no interaction handler, so no question) imported it as text in
    /// 1.5 s. Passwords are asked through the callback, not a dialog, and still work.
    static let loadOptions = "Language=en-US,Batch=true"

    /// Exports a loaded document as PDF (every page) into the private directory and returns
    /// the PDF opened, its name already removed. The caller holds the office.
    func exportPDF(_ document: OfficeDocument) throws(DocumentError) -> InputFile {
        unexported.removeAll { $0.document === document || $0.document == nil }
        if let exported = document.exported {
            document.exported = nil
            return try exported.get()
        }
        return try export(document)
    }

    /// `QUIRE_OFFICE_EXPORT_LOG`: a file that gets a line for every whole-document export
    /// (the path exported), for tests that check a page was drawn without one. Unset: nothing.
    private static func noteExport(_ path: DocumentPath) {
        guard let log = getenv("QUIRE_OFFICE_EXPORT_LOG"), log.pointee != 0 else { return }
        let descriptor = Glibc.open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        defer { Glibc.close(descriptor) }
        let line = path.bytes + [0x0A]
        _ = line.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Exports page 1 alone as PDF (a spreadsheet's printed page 1, which LibreOffice lays out
    /// only for an export: Calc paints its view, not its printed pages) and returns it opened.
    /// Calc still counts every page, but draws one: 2.1 s instead of 17 s for a 2,445-page
    /// sheet (`bench/floors/office-lok.c` p1 vs full). The caller holds the office.
    func exportFirstPage(_ document: OfficeDocument) throws(DocumentError) -> InputFile {
        unexported.removeAll { $0.document === document || $0.document == nil }
        return try export(document, options: #"{"PageRange":{"type":"string","value":"1"}}"#)
    }

    private func export(_ document: OfficeDocument, options: String? = nil) throws(DocumentError) -> InputFile {
        guard let handle = document.current else {
            throw DocumentError(kind: .damaged, path: document.path, reason: "the document was closed before it was laid out")
        }
        if options == nil { Self.noteExport(document.path) }
        counter += 1
        let output = directory + "/document-\(counter).pdf"
        let saved = StandardOutputDiversion.run {
            quire_lok_save_as(handle, PercentEncoding.fileURL(Array(output.utf8)), "pdf", options)
        }
        defer { unlink(output) }
        guard saved != 0 else {
            throw DocumentError(kind: .damaged, path: document.path,
                                reason: "LibreOffice could not lay out its pages (\(lastError() ?? "PDF export failed"))")
        }
        OfficeKitCleanup.endBeforeOfficeDestructors()
        do {
            return try InputFile(path: DocumentPath(output))
        } catch {
            throw DocumentError(kind: .damaged, path: document.path, reason: "LibreOffice made no PDF of it (\(error))")
        }
    }

    /// Keeps `document` open between office calls; what leaves the lock is its ID.
    func keep(_ document: OfficeDocument) -> OfficeDocument.ID {
        lastDocument += 1
        documents[lastDocument] = document
        return OfficeDocument.ID(value: lastDocument)
    }

    /// The document kept as `id` (the office is held).
    func document(_ id: OfficeDocument.ID) throws(DocumentError) -> OfficeDocument {
        guard let document = documents[id.value] else {
            throw DocumentError(kind: .damaged, path: nil, reason: "the document was closed before it was laid out")
        }
        return document
    }

    /// Closes the document kept as `id` (the office is held).
    func close(_ id: OfficeDocument.ID) {
        documents.removeValue(forKey: id.value)?.close()
    }

    /// Closes the document kept as `id`, taking the office's lock (its holder is gone).
    static func close(_ id: OfficeDocument.ID) {
        office.withLock { state in
            if case .success(let kit)? = state { kit.close(id) }
        }
    }

    private func lastError() -> String? {
        guard let error = quire_lok_error(kit) else { return nil }
        defer { quire_lok_free_error(kit, error) }
        let text = String(decoding: UnsafeRawBufferPointer(start: error, count: strlen(error)), as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return text.isEmpty ? nil : text
    }

    private static func absolute(_ path: [UInt8]) -> [UInt8] {
        if path.first == UInt8(ascii: "/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        return buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) } + [UInt8(ascii: "/")] + path
    }

    /// The installed office's version as its profiles record it ("7.4"), from `ProductKey` in
    /// the program directory's `bootstraprc` ("LibreOffice 7.4"); nil when it cannot be read.
    static func productVersion(program: String) -> String? {
        guard let data = FileManager.default.contents(atPath: program + "/bootstraprc") else { return nil }
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) where line.hasPrefix("ProductKey=") {
            guard let word = line.split(separator: " ").last else { return nil }
            let parts = word.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return nil }
            return String(word)
        }
        return nil
    }

    /// The profile's settings (registrymodifications.xcu), fused over LibreOffice's defaults.
    /// The view's on-screen aids (text, section and table boundaries, field shadings) are
    /// hidden: page 1 painted from the view, shown before the export, is then the page as it
    /// prints. Automatic spell checking is off: nothing is shown of it, and LibreOffice's idle
    /// spell check of a long document held its lock for a second after loading, delaying page 1.
    ///
    /// `ooSetupLastVersion` says the profile was last used by this very office: without it
    /// LibreOffice takes every start as the first after an upgrade (migration, its graphics
    /// render tests) — 0.5 of the 0.58 s its start took on this machine
    /// (`bench/floors/office-lok.c`; 0.075 s with it). A throw-away profile is new every time,
    /// so it is written here; an unreadable version leaves it out (slower, not wrong).
    static func profileSettings(temporaryFiles: String, productVersion: String?) -> String {
        let lastVersion = productVersion.map {
            #"<item oor:path="/org.openoffice.Setup/Product"><prop oor:name="ooSetupLastVersion" oor:op="fuse"><value>\#($0)</value></prop></item>"# + "\n"
        } ?? ""
        return """
    <?xml version="1.0" encoding="UTF-8"?>
    <oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
    <item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
    <item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
    <item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
    <item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="UseDocumentOOoLockFile" oor:op="fuse"><value>false</value></prop></item>
    <item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="UseDocumentSystemFileLocking" oor:op="fuse"><value>false</value></prop></item>
    <item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="UseLocking" oor:op="fuse"><value>false</value></prop></item>
    <item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>1</value></prop></item>
    <item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>1</value></prop></item>
    <item oor:path="/org.openoffice.Office.Calc/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>1</value></prop></item>
    <item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>2</value></prop></item>
    <item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" oor:op="fuse"><value>false</value></prop></item>
    <item oor:path="/org.openoffice.Office.Linguistic/SpellChecking"><prop oor:name="IsSpellAuto" oor:op="fuse"><value>false</value></prop></item>
    <item oor:path="/org.openoffice.Office.UI/ColorScheme/ColorSchemes/org.openoffice.Office.UI:ColorScheme['LibreOffice']/DocBoundaries"><prop oor:name="IsVisible" oor:op="fuse"><value>false</value></prop></item>
    <item oor:path="/org.openoffice.Office.UI/ColorScheme/ColorSchemes/org.openoffice.Office.UI:ColorScheme['LibreOffice']/TableBoundaries"><prop oor:name="IsVisible" oor:op="fuse"><value>false</value></prop></item>
    <item oor:path="/org.openoffice.Office.UI/ColorScheme/ColorSchemes/org.openoffice.Office.UI:ColorScheme['LibreOffice']/WriterFieldShadings"><prop oor:name="IsVisible" oor:op="fuse"><value>false</value></prop></item>
    <item oor:path="/org.openoffice.Office.UI/ColorScheme/ColorSchemes/org.openoffice.Office.UI:ColorScheme['LibreOffice']/WriterIdxShadings"><prop oor:name="IsVisible" oor:op="fuse"><value>false</value></prop></item>
    <item oor:path="/org.openoffice.Office.UI/ColorScheme/ColorSchemes/org.openoffice.Office.UI:ColorScheme['LibreOffice']/WriterSectionBoundaries"><prop oor:name="IsVisible" oor:op="fuse"><value>false</value></prop></item>
    <item oor:path="/org.openoffice.Office.UI/ColorScheme/ColorSchemes/org.openoffice.Office.UI:ColorScheme['LibreOffice']/ObjectBoundaries"><prop oor:name="IsVisible" oor:op="fuse"><value>false</value></prop></item>
    <item oor:path="/org.openoffice.Office.Paths/Paths/org.openoffice.Office.Paths:NamedPath['Temp']"><prop oor:name="WritePath" oor:op="fuse"><value>\(temporaryFiles)</value></prop></item>
    \(lastVersion)</oor:items>

    """
    }
}

/// A loaded document the office does not keep alive.
struct WeakOfficeDocument {
    weak var document: OfficeDocument?
    init(_ document: OfficeDocument) { self.document = document }
}
