/// An archive's listing as the pages show it: a summary line, then the entries as a tree
/// (sorted by path, each folder once, names indented under it) with size and date columns.
/// Control characters in names are shown as `?`; a path that would unpack outside its folder
/// is marked.
enum ArchiveListingText {
    /// Columns a line may take: 90 fit an A4 text page's 499 pt at ``ArchiveSource/fontSize``;
    /// longer lines are shortened, so each page holds exactly ``TextSource/linesPerPage``.
    static let width = 90

    static func lines(_ listing: ArchiveListing, name: String) -> [String] {
        unwrapped(listing, name: name).map(fitted)
    }

    /// `line`, its middle replaced by "…" when it is wider than ``width`` (the end of a long
    /// path — the file's own name — stays).
    static func fitted(_ line: String) -> String {
        guard line.count > width else { return line }
        let head = line.prefix(width / 2 - 1), tail = line.suffix(width - width / 2)
        return head + "…" + tail
    }

    private static func unwrapped(_ listing: ArchiveListing, name: String) -> [String] {
        var lines: [String] = []
        let unpacked = listing.totalSize
        var summary = "\(name) — \(grouped(listing.entries.count)) \(listing.entries.count == 1 ? "entry" : "entries")"
        summary += ", \(bytes(unpacked)) unpacked"
        summary += ", \(bytes(listing.packedSize)) packed"
        if unpacked > listing.packedSize {
            // What the compression saved: packed as a share of unpacked.
            summary += " (\(Int((Double(listing.packedSize) / Double(unpacked) * 100).rounded())) %)"
        }
        lines.append(summary)
        lines.append(([listing.format] + listing.filters).joined(separator: ", "))
        if let truncation = listing.truncation { lines.append("⚠ " + truncation) }
        let unsafe = listing.entries.count { $0.isUnsafe }
        if unsafe > 0 { lines.append("⚠ \(unsafe) \(unsafe == 1 ? "entry" : "entries") would unpack outside the folder (marked !)") }
        lines.append("")
        lines.append("        Size  Modified (UTC)    Name")

        let sorted = listing.entries.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        var openFolders: [Substring] = []
        for entry in sorted {
            let size = entry.size.map(grouped) ?? "—"
            let date = entry.modified.map(Self.date) ?? ""
            let columns = pad(size, 12) + "  " + pad(date, 16, left: true) + " "
            // A path that climbs out is shown whole, where it sorts, outside the tree.
            if entry.isUnsafe {
                var label = clean(Substring(entry.path))
                if let target = entry.linkTarget {
                    label += (entry.isHardLink ? " (hard link to " : " → ") + clean(Substring(target)) + (entry.isHardLink ? ")" : "")
                }
                lines.append(columns + "!" + label)
                continue
            }
            var parts = entry.path.split(separator: "/", omittingEmptySubsequences: true)
            guard let last = parts.popLast() else { continue }
            // Folders this entry is under that were not listed yet.
            var shared = 0
            while shared < min(parts.count, openFolders.count), parts[shared] == openFolders[shared] { shared += 1 }
            openFolders.removeSubrange(shared...)
            for depth in shared..<parts.count {
                lines.append(String(repeating: " ", count: 32) + indent(depth) + clean(parts[depth]) + "/")
                openFolders.append(parts[depth])
            }
            var label = indent(parts.count) + clean(last)
            switch entry.kind {
            case .directory:
                label += "/"
                openFolders.append(last)
            case .symlink: label += " → " + clean(Substring(entry.linkTarget ?? ""))
            default: break
            }
            if entry.isEncrypted { label += "  (encrypted)" }
            lines.append(columns + " " + label)
        }
        return lines
    }

    private static func indent(_ depth: Int) -> String { String(repeating: "  ", count: min(depth, 40)) }

    private static func clean(_ text: Substring) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    }

    private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let count = text.count
        guard count < width else { return text }
        let space = String(repeating: " ", count: width - count)
        return left ? text + space : space + text
    }

    static func grouped(_ value: Int) -> String { grouped(Int64(value)) }

    static func grouped(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return value < 0 ? "-" + out : out
    }

    /// "12.3 MB" (SI units, as file managers show sizes).
    static func bytes(_ value: Int64) -> String {
        if value < 1000 { return "\(value) bytes" }
        let units = ["kB", "MB", "GB", "TB", "PB"]
        var amount = Double(value) / 1000
        var unit = 0
        while amount >= 999.95 && unit < units.count - 1 { amount /= 1000; unit += 1 }
        let tenths = Int((amount * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    /// "2024-05-01 13:45" in UTC (days to civil date, after Howard Hinnant's published algorithm).
    static func date(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day)) \(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60))"
    }
}
