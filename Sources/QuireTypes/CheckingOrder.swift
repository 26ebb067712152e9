internal import QuireGIO

/// The order in which Quire decides a file's type from its name and first bytes: the
/// shared-mime-info specification's "recommended checking order" as GIO's
/// `g_content_type_guess` applies it, plus a few deliberate, documented departures
/// (docs/notes/types.md).
///
/// 1. Empty content: the name alone decides; `application/x-zerosize` when no glob matches.
/// 2. No glob, or globs that conflict: GIO decides with the content (magic match, ties between
///    the globs broken by the magic type, then the text/binary fallback).
/// 3. All globs agree on one type: that type, unless the content
///    - matched a high-priority (≥ 80) magic rule, or
///    - matched a magic rule of a non-text sub-class of it (content is more specific: an ODF
///      document named `.zip`), or, Quire's own rules,
///    - is binary under a text name and matched a magic rule of a non-text type (a PDF
///      named `.txt`), or
///    - lacks the signature the name's type has magic for and is, by its signature, a
///      document or image Quire renders (a JPEG named `.png`).
///    Weak text magic (C, Modelica, MATLAB, Perl, HTML at priorities 10–50) never overrides a
///    name, not even `text/plain`'s (a `.txt` starting with `//` stays plain text).
enum CheckingOrder {
    struct Decision: Equatable {
        let type: String
        let uncertain: Bool
        let empty: Bool
    }

    /// The magic priority from which content overrides a glob (shared-mime-info, GIO).
    static let highPriority = 80

    static func decide(fileName: [UInt8], prefix: [UInt8]) -> Decision {
        if prefix.isEmpty { return emptyContent(fileName: fileName) }
        if fileName.isEmpty {
            let content = SharedMimeInfo.guess(fileName: [], data: prefix)
            return Decision(type: content.type, uncertain: content.uncertain, empty: false)
        }
        let byName = SharedMimeInfo.guess(fileName: fileName, data: nil)
        guard !byName.uncertain else {
            // No glob, or conflicting globs: GIO's own tie-break with the content.
            let guess = SharedMimeInfo.guess(fileName: fileName, data: prefix)
            return Decision(type: guess.type, uncertain: guess.uncertain, empty: false)
        }
        let glob = byName.type
        return Decision(type: resolve(glob: glob, prefix: prefix), uncertain: false, empty: false)
    }

    private static func emptyContent(fileName: [UInt8]) -> Decision {
        guard !fileName.isEmpty else { return Decision(type: "application/x-zerosize", uncertain: false, empty: true) }
        let byName = SharedMimeInfo.guess(fileName: fileName, data: nil)
        if !byName.uncertain { return Decision(type: byName.type, uncertain: false, empty: true) }
        if !SharedMimeInfo.isUnknown(byName.type) {
            // Conflicting globs and no content to break the tie: the heaviest glob, uncertain.
            return Decision(type: byName.type, uncertain: true, empty: true)
        }
        return Decision(type: "application/x-zerosize", uncertain: false, empty: true)
    }

    /// One glob type; does the content override it?
    private static func resolve(glob: String, prefix: [UInt8]) -> String {
        let content = SharedMimeInfo.guess(fileName: [], data: prefix)
        // GIO never lets content make a file a desktop entry when its name says otherwise
        // (desktop entries run programs).
        // Plain text (GIO's fallback for text, or a BOM's weak magic) never overrides a name.
        guard !content.uncertain, content.type != glob, content.type != "application/x-desktop",
              content.type != "text/plain" else { return glob }
        let sniffed = content.type
        if SharedMimeInfo.isA(glob, sniffed) { return glob }
        // Only a magic match can override a name. The database's priorities are read only here,
        // when name and content disagree.
        let magic = MimeMagic.shared
        guard let priority = magic.priority(of: sniffed, matching: prefix) else { return glob }
        if priority >= highPriority { return sniffed }
        // Below 80, text magic is weak (a "//" line is C, a "class" line Modelica): it never
        // overrides a name, not even a text/plain one it is a sub-class of.
        if SharedMimeInfo.isA(sniffed, "text/plain") { return glob }
        if SharedMimeInfo.isA(sniffed, glob) { return sniffed }
        // Quire: binary content under a text name (a PDF named notes.txt).
        if SharedMimeInfo.isA(glob, "text/plain") && !looksLikeText(prefix) { return sniffed }
        // Quire: the name's format has a signature the content lacks, and the content carries the
        // signature of a document or image Quire renders (a JPEG named .png).
        if rendersByContent(sniffed) && magic.hasRules(for: glob) && magic.priority(of: glob, matching: prefix) == nil {
            return sniffed
        }
        return glob
    }

    /// Families whose renderer depends on the exact format: showing them under the wrong type
    /// fails, so their signature is trusted over a name.
    private static func rendersByContent(_ type: String) -> Bool {
        switch ContentType.family(of: SharedMimeInfo.mimeType(of: type)) {
        case .pdf, .postscript, .image: return true
        default: return false
        }
    }

    /// The specification's text/binary test: text has no ASCII control characters other than
    /// whitespace (bytes with the high bit set may be UTF-8).
    static func looksLikeText(_ bytes: [UInt8]) -> Bool {
        !bytes.contains { byte in
            byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0B && byte != 0x0C && byte != 0x0D && byte != 0x08
                || byte == 0x7F
        }
    }
}
