#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FoundationEssentials
import Quire
import QuireRenderService

/// The human-readable info card.
enum InfoCardFormatter {
    /// "48 %", or "0.1 %" below one per cent (a zip bomb packs 1 GB into 1 MB).
    static func percent(_ fraction: Double) -> String {
        let value = fraction * 100
        if value >= 1 || value == 0 { return "\(Int(value.rounded())) %" }
        let tenths = max(1, Int((value * 10).rounded()))
        return "0.\(tenths) %"
    }

    static func card(_ info: DocumentInfo, styled: Bool) -> String {
        var rows: [(String, String)] = []
        let type = info.contentType
        rows.append(("Kind", type.localizedDescription + (type.isUncertain ? " (uncertain)" : "")))
        rows.append(("MIME type", type.mimeType))
        let parents = type.parentTypes
        if !parents.isEmpty {
            // Joined by hand: `joined(separator:)` looks up a conformance at run time on first
            // use (a scan of every conformance record, ~0.2 M instructions of each `quire info`).
            var line = parents[0]
            for parent in parents.dropFirst() { line += ", " + parent }
            rows.append(("Is a", line))
        }
        rows.append(("Icon", "\(type.iconName) (generic: \(type.genericIconName))"))
        rows.append(("Size", info.size < 1000 ? info.formattedSize : "\(info.formattedSize) (\(grouped(info.size)) bytes)"))
        rows.append(("Modified", dateString(info.modified.date)))
        if let pdf = info.pdf {
            if pdf.isPasswordProtected && pdf.pageCount == nil {
                rows.append(("Encrypted", "yes, a password is needed to open it"))
            } else {
                if let pages = pdf.pageCount { rows.append(("Pages", "\(pages)")) }
                if let size = pdf.firstPageSize {
                    let paper = size.paperName.map { " (\($0))" } ?? ""
                    rows.append(("Page size", "\(points(size.width)) × \(points(size.height)) pt\(paper)"))
                }
                if let title = pdf.title { rows.append(("Title", title)) }
                if let author = pdf.author { rows.append(("Author", author)) }
                if let subject = pdf.subject { rows.append(("Subject", subject)) }
                if let creator = pdf.creator { rows.append(("Creator", creator)) }
                if let producer = pdf.producer { rows.append(("Producer", producer)) }
                if let created = pdf.creationDate { rows.append(("Created", dateString(created))) }
                if let version = pdf.version { rows.append(("Version", version)) }
                if type.family == .pdf || pdf.isPasswordProtected {
                    rows.append(("Encrypted", pdf.isPasswordProtected ? "yes, opened with password"
                                 : pdf.isEncrypted ? "yes (restricted permissions)" : "no"))
                }
            }
        }
        if let image = info.image {
            rows.append(("Dimensions", "\(image.width) × \(image.height) pixels"))
        }
        if let faces = info.fontFaces {
            if faces.count > 1 { rows.append(("Faces", "\(faces.count)")) }
            for face in faces.prefix(faces.count > 1 ? 64 : 1) {
                let prefix = faces.count > 1 ? "  " : ""
                if faces.count > 1 { rows.append(("Face", face.fullName)) }
                rows.append((prefix + "Family", face.family))
                if let style = face.style { rows.append((prefix + "Style", style + (face.isVariable ? " (variable)" : ""))) }
                if let version = face.version { rows.append((prefix + "Version", version)) }
                if let designer = face.designer { rows.append((prefix + "Designer", designer)) }
                if let maker = face.manufacturer, maker != face.designer { rows.append((prefix + "Manufacturer", maker)) }
                if let glyphs = face.glyphCount { rows.append((prefix + "Glyphs", grouped(Int64(glyphs)))) }
                rows.append((prefix + "Characters", grouped(Int64(face.characterCount))))
                if !face.scripts.isEmpty { rows.append((prefix + "Scripts", face.scripts.joined(separator: ", "))) }
                if face.isSymbol { rows.append((prefix + "Scripts", "none (a symbol font)")) }
                if let format = face.format { rows.append((prefix + "Format", format)) }
            }
            if faces.count > 64 { rows.append(("", "… and \(faces.count - 64) more faces")) }
        }
        if let table = info.table {
            rows.append(("Rows", table.rowsDescription))
            rows.append(("Columns", "\(table.columns.count)"))
            for column in table.columns.prefix(64) { rows.append(("  " + column.name, column.kind.rawValue)) }
            if table.columns.count > 64 { rows.append(("", "… and \(table.columns.count - 64) more columns")) }
            rows.append(("Separator", table.delimiter + (table.header ? " (header row)" : " (no header row)")))
            rows.append(("Encoding", table.encoding))
            if let cut = table.cut { rows.append(("Cut", cut)) }
        }
        if let archive = info.archive {
            rows.append(("Format", ([archive.format] + archive.filters).joined(separator: ", ")))
            let files = archive.fileCount, folders = archive.entries.count { $0.kind == .directory }
            func counted(_ count: Int, _ noun: String) -> String { "\(grouped(Int64(count))) \(noun)\(count == 1 ? "" : "s")" }
            rows.append(("Entries", "\(grouped(Int64(archive.entries.count))) (\(counted(files, "file")), \(counted(folders, "folder")))"
                         + (archive.truncation.map { "; \($0)" } ?? "")))
            rows.append(("Unpacked", DocumentInfo.formatSize(archive.totalSize)
                         + (archive.totalSize > archive.packedSize && archive.totalSize > 0
                            ? " (packed to \(Self.percent(Double(archive.packedSize) / Double(archive.totalSize))))" : "")))
            let unsafe = archive.entries.count { $0.isUnsafe }
            if unsafe > 0 { rows.append(("Warning", "\(unsafe) entries would unpack outside the folder")) }
        }
        if let database = info.database {
            func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
            rows.append(("Tables", "\(counted(database.tableCount, "table")), \(counted(database.viewCount, "view"))"
                         + (database.truncation.map { "; \($0)" } ?? "")))
            for table in database.tables.prefix(64) {
                let columns = table.columns.map { $0.type.isEmpty ? $0.name : "\($0.name) \($0.type)" }.joined(separator: ", ")
                rows.append(("  " + (table.isView ? "View" : "Table"),
                             "\(table.name): \(DatabaseSummary.rowsText(table))"
                             + (table.problem.map { " (\($0))" } ?? "") + (columns.isEmpty ? "" : "; \(columns)")))
            }
            if database.tables.count > 64 { rows.append(("", "… and \(database.tables.count - 64) more")) }
            rows.append(("Page size", "\(database.pageSize) bytes, \(grouped(database.pageCount)) pages"))
            rows.append(("Encoding", database.encoding))
            if let version = database.userVersion { rows.append(("User version", "\(version)")) }
            if let note = database.journalNote { rows.append(("Note", note)) }
        }
        if let markdown = info.markdown {
            if let title = markdown.title { rows.append(("Title", title)) }
            rows.append(("Words", grouped(Int64(markdown.wordCount))))
            rows.append(("Headings", "\(markdown.headings.count)"))
            for heading in markdown.headings.prefix(64) {
                rows.append(("", String(repeating: "  ", count: max(0, heading.level - 1)) + heading.text))
            }
            if markdown.headings.count > 64 { rows.append(("", "… and \(markdown.headings.count - 64) more")) }
        }
        if let notebook = info.notebook {
            if let kernel = notebook.kernel { rows.append(("Kernel", kernel)) }
            if let language = notebook.language { rows.append(("Language", language)) }
            rows.append(("Cells", notebook.cellsText))
            if notebook.images > 0 { rows.append(("Images", "\(notebook.images)")) }
        }
        if let photo = info.photo {
            rows += photo.cardRows.map { ($0.label, $0.value) }
        }
        if let animation = info.animation {
            rows += animation.cardRows.map { ($0.label, $0.value) }
        }
        if let djvu = info.djvu {
            rows.append(("Pages", grouped(Int64(djvu.pages))))
            if let width = djvu.pageWidth, let height = djvu.pageHeight {
                let size = PageSize(width: width, height: height)
                rows.append(("Page size", "\(points(width)) × \(points(height)) pt"
                             + (size.paperName.map { " (\($0))" } ?? "") + (djvu.resolution.map { ", \($0) dpi" } ?? "")))
            }
        }
        if let mail = info.mail {
            for (label, value) in [("Subject", mail.subject), ("From", mail.from), ("To", mail.to), ("Cc", mail.cc), ("Date", mail.date)] {
                if let value, !value.isEmpty { rows.append((label, value)) }
            }
            rows.append(("Attachments", mail.attachments.isEmpty ? "none" : "\(mail.attachments.count)"))
            for attachment in mail.attachments.prefix(64) {
                rows.append(("", attachment.name + " (" + (attachment.size.map { DocumentInfo.formatSize($0) + ", " } ?? "") + attachment.mimeType + ")"))
            }
            if mail.attachments.count > 64 { rows.append(("", "… and \(mail.attachments.count - 64) more")) }
        }
        if let book = info.ebook {
            if let title = book.title { rows.append(("Title", title)) }
            rows += book.details.map { ($0.label, $0.value) }
            for entry in book.contents.entries.prefix(64) {
                rows.append(("", String(repeating: "  ", count: max(0, entry.level - 1)) + entry.title
                             + (entry.line == nil ? " (not shown)" : "")))
            }
            if book.contents.entries.count > 64 { rows.append(("", "… and \(book.contents.entries.count - 64) more")) }
        }
        if let book = info.comicBook {
            if let title = book.title { rows.append(("Title", title)) }
            rows += book.details.map { ($0.label, $0.value) }
            rows.append(("Pages", grouped(Int64(book.pages))))
        }
        if let json = info.json {
            for detail in json.details { rows.append((detail.label, detail.value)) }
        }
        if let media = info.media {
            if let duration = media.duration { rows.append(("Duration", DurationText.clock(duration))) }
            if let width = media.width, let height = media.height { rows.append(("Dimensions", "\(width) × \(height) pixels")) }
            if let rate = media.frameRate { rows.append(("Frame rate", DecimalText.fixed(rate, 2) + " frames/s")) }
            if let codec = media.videoCodec { rows.append(("Video", codec)) }
            if let codec = media.audioCodec {
                var audio = codec
                if let channels = media.channels { audio += channels == 1 ? ", mono" : channels == 2 ? ", stereo" : ", \(channels) channels" }
                if let rate = media.sampleRate { audio += ", \(rate) Hz" }
                if let bits = media.audioBitRate { audio += ", \(bits / 1000) kbit/s" }
                rows.append(("Audio", audio))
            }
            if let container = media.container, container != media.videoCodec, container != media.audioCodec {
                rows.append(("Container", container))
            }
            if let title = media.title { rows.append(("Title", title)) }
            if let artist = media.artist { rows.append(("Artist", artist)) }
            if let album = media.album { rows.append(("Album", album)) }
            if let track = media.trackNumber { rows.append(("Track", "\(track)")) }
            if media.hasCover { rows.append(("Cover", "yes")) }
        }
        rows.append(("Preview", describe(info.capabilities.preview)))
        rows.append(("Thumbnail", describe(info.capabilities.thumbnail)))
        rows.append(("Print", describe(info.capabilities.print)))
        if info.capabilities.print.isSupported { rows.append(("", printContentOnly)) }

        let width = rows.map(\.0.count).max() ?? 0
        var out = Terminal.bold(info.name, enabled: styled) + "\n"
        for (label, value) in rows {
            // A row without a label continues the one above it.
            let padded = Terminal.padded(label.isEmpty ? "" : label + ":", to: width + 2)
            out += "  " + Terminal.dim(padded, enabled: styled) + " " + oneLine(value) + "\n"
        }
        return out
    }

    static func describe(_ capability: Capability) -> String {
        switch capability {
        case .supported: return "yes"
        case .limited(let note): return "yes (\(note))"
        case .unsupported(let reason): return "no — \(reason)"
        }
    }

    /// What `info` says under a printable file's Print line (and its `--json` note): the card
    /// answers for the content only. Whether a printer accepts it now is `actions`' live answer
    /// (``DocumentInteraction``, which the window and the terminal viewer ask too): asking the
    /// print system here would load libcups and wait for the scheduler on every card — measured
    /// at about 7.5 M instructions and, at load 11, 45 ms of a 107 ms `info` (docs/notes/print.md).
    static let printContentOnly = "whether a printer accepts it: quire actions"

    static func describe(_ capability: PrintCapability) -> String {
        switch capability {
        case .direct: return "yes, the content (sent as it is)"
        case .byConversion(let type): return "yes, the content (converted to \(ContentType(mimeType: type).localizedDescription))"
        case .unsupported(let reason): return "no — \(reason)"
        }
    }

    /// Metadata can hold control characters: keep each value on its line.
    static func oneLine(_ value: String) -> String {
        TerminalEscaping.escaped(Array(value.utf8))
    }

    static func points(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : DecimalText.fixed(value, 1)
    }

    static func grouped(_ value: Int64) -> String {
        let digits = Array(String(value))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return out
    }

    static func dateString(_ date: Date) -> String {
        TimeText.local(date, withZone: true)
    }
}
