#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FoundationEssentials
import Quire

/// The human-readable info card.
enum InfoCardFormatter {
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
        rows.append(("Preview", describe(info.capabilities.preview)))
        rows.append(("Thumbnail", describe(info.capabilities.thumbnail)))
        rows.append(("Print", describe(info.capabilities.print)))

        let width = rows.map(\.0.count).max() ?? 0
        var out = Terminal.bold(info.name, enabled: styled) + "\n"
        for (label, value) in rows {
            let padded = Terminal.padded(label + ":", to: width + 2)
            out += "  " + Terminal.dim(padded, enabled: styled) + " " + oneLine(value) + "\n"
        }
        return out
    }

    static func describe(_ capability: Capability) -> String {
        switch capability {
        case .supported: return "yes"
        case .unsupported(let reason): return "no — \(reason)"
        }
    }

    static func describe(_ capability: PrintCapability) -> String {
        switch capability {
        case .direct: return "yes (sent as it is)"
        case .byConversion(let type): return "yes (converted to \(ContentType(mimeType: type).localizedDescription))"
        case .unsupported(let reason): return "no — \(reason)"
        }
    }

    /// Metadata can hold control characters: keep each value on its line.
    static func oneLine(_ value: String) -> String {
        DocumentPath.escaped(Array(value.utf8))
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
