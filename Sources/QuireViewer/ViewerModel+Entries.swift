#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Quire
import QuireRenderService
import QuireSystem

/// An archive's or a database's entries, a JSON outline, Markdown, a book's contents; opening an entry.
extension ViewerModel {
    // MARK: Archives: opening an entry

    /// The current archive's file entries that can be opened (sorted by path); empty for
    /// anything else. Entries whose names would unpack outside the archive's folder are left out.
    public var archiveEntries: [ArchiveEntryFact] { current.facts?.entries ?? [] }

    /// A JSON document's outline (its text lines' depths, path labels and folds), when the
    /// current file is one shown as text; nil otherwise.
    public var jsonOutline: JSONOutline? { current.facts?.outline }

    /// A Markdown file's line kinds and style runs, when the current file is one shown as text.
    public var markdownStyles: MarkdownText? { current.facts?.markdown }
    /// Their picture lines' pixels (decoded by the worker).
    public var markdownPictures: [OpenedDocument.Picture] { current.facts?.markdownPictures ?? [] }

    /// A book's table of contents (EPUB) while it is shown as text: each entry at a line.
    public var contents: TableOfContents {
        guard case .text = content, let contents = current.facts?.contents else { return TableOfContents() }
        return contents
    }

    /// Goes to entry `index` of ``contents``: its line at the top. A message when it goes
    /// nowhere (outside the book, or past where the text stopped at a limit).
    public func goTo(contentsEntry index: Int) -> String? {
        let entries = contents.entries
        guard entries.indices.contains(index) else { return "the book has no contents entry \(index + 1)" }
        guard let line = entries[index].line else { return "“\(entries[index].title)” is not in the text shown (it is outside the book, or past where the text stops)" }
        return goTo(line + 1)
    }

    /// Opens archive entry `entry` as a file of its own, after the others, and shows it: the
    /// worker reads its bytes from the archive (at most the inflate limit), the model writes
    /// them — nothing else — into a private folder of its own (mode 0700, removed on
    /// ``close()``) under the entry's file name, and the worker opens that file like any other.
    /// - Returns: why it could not be opened, or nil.
    @discardableResult public func openArchiveEntry(_ entry: ArchiveEntryFact) -> RenderProblem? {
        let archive = files[fileIndex]
        let job = OpenJob(file: fileIndex, request: DocumentRequest(path: archive.path, password: nil,
                                                                     maximumFileSize: configuration.maximumFileSize),
                          want: .entry(entry.path))
        // Withdrawn (by answer(to:)) before the new file is asked for: selectFile asks for it.
        var result: Result<[UInt8], RenderProblem>?
        if case .entry(_, let answer)? = answer(to: job) { result = answer }
        switch result {
        case nil:
            return RenderProblem(.workerFailed, "the renderer did not read \(entry.path) in time")
        case .failure(let problem)?:
            return problem
        case .success(let bytes)?:
            do throws(RenderProblem) {
                let path = try writeEntry(bytes, named: entry.fileName)
                files.append(OpenFile(path: path))
                selectFile(files.count - 1)
                return nil
            } catch {
                return error
            }
        }
    }

    /// A database's table (one of ``archiveEntries``) as the worker writes it for a table opened
    /// from the list — its heading, columns and first rows in box rules (``DatabaseText``) — as
    /// lines, for a front-end that shows it beside the list (the window); the database stays the
    /// current file. Blocks until the worker answers, as ``openArchiveEntry(_:)`` does.
    public func databaseTableLines(_ entry: ArchiveEntryFact) -> Result<[String], RenderProblem> {
        let database = files[fileIndex]
        let job = OpenJob(file: fileIndex, request: DocumentRequest(path: database.path, password: nil,
                                                                     maximumFileSize: configuration.maximumFileSize),
                          want: .entry(entry.path))
        guard case .entry(_, let answer)? = answer(to: job) else {
            return .failure(RenderProblem(.workerFailed, "the renderer did not read \(entry.path) in time"))
        }
        switch answer {
        case .failure(let problem): return .failure(problem)
        case .success(let bytes): return .success(TextContent(bytes: bytes).lines)
        }
    }

    func writeEntry(_ bytes: [UInt8], named name: String) throws(RenderProblem) -> DocumentPath {
        if entryDirectory == nil {
            var base = "/tmp"
            if let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty, access(runtime, W_OK) == 0 {
                base = runtime
            }
            var template = Array("\(base)/quire-entries-XXXXXX".utf8CString)
            guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
                throw RenderProblem(.unreadable, "cannot make a private folder for the entry in \(base) (\(Errno.current))")
            }
            entryDirectory = String(cString: made)
        }
        // The entry's own name, made safe: no folders, no control characters, not hidden.
        var safe = String(String.UnicodeScalarView(name.unicodeScalars.map { $0 == "/" || $0.value < 0x20 || $0.value == 0x7F ? "_" : $0 }))
        while safe.hasPrefix(".") { safe.removeFirst() }
        if safe.isEmpty { safe = "entry" }
        var target = entryDirectory! + "/" + safe
        var counter = 2
        while access(target, F_OK) == 0 {
            target = entryDirectory! + "/\(counter)-" + safe
            counter += 1
        }
        do {
            try atomicReplace(path: target, contents: bytes, permissions: 0o600)
        } catch {
            throw RenderProblem(.unreadable, "cannot write the entry to \(target): \(error)")
        }
        return DocumentPath(target)
    }

    func removeEntryDirectory() {
        guard let directory = entryDirectory else { return }
        entryDirectory = nil
        if let listing = opendir(directory) {
            while let item = readdir(listing) {
                let name = withUnsafeBytes(of: item.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if name != "." && name != ".." { unlink(directory + "/" + name) }
            }
            closedir(listing)
        }
        rmdir(directory)
    }

    func lastPosition(of file: OpenFile) -> Int {
        guard let facts = file.facts else { return 0 }
        if let text = facts.text { return max(0, text.lineCount - 1) }
        return max(0, facts.pageCount - 1)
    }
}
