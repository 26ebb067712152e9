internal import CGIO

/// Text folded for searching as people expect: lower case, accents dropped (a character's full
/// canonical decomposition without its combining marks, GLib's Unicode tables), so "Resume"
/// finds "résumé". Each folded scalar remembers which scalar of the original it came from, so a
/// match can be mapped back to the characters shown.
public struct TextFolding: Sendable, Hashable {
    public let scalars: [Unicode.Scalar]
    /// `origins[i]`: index, in the original scalars, of the one `scalars[i]` came from.
    public let origins: [Int]
    /// Which original scalars are combining marks (a match takes in the marks after its last
    /// letter: they belong to it).
    private let marks: [Bool]

    public init<S: Sequence>(_ text: S) where S.Element == Unicode.Scalar {
        var scalars: [Unicode.Scalar] = []
        var origins: [Int] = []
        var marks: [Bool] = []
        var decomposed = [gunichar](repeating: 0, count: Int(G_UNICHAR_MAX_DECOMPOSITION_LENGTH))
        for (index, scalar) in text.enumerated() {
            let type = g_unichar_type(gunichar(scalar.value))
            marks.append(type == G_UNICODE_NON_SPACING_MARK || type == G_UNICODE_ENCLOSING_MARK || type == G_UNICODE_SPACING_MARK)
            if scalar.isASCII {
                let value = scalar.value
                scalars.append((0x41...0x5A).contains(value) ? Unicode.Scalar(value + 0x20)! : scalar)
                origins.append(index)
                continue
            }
            let count = g_unichar_fully_decompose(gunichar(scalar.value), 0, &decomposed, gsize(decomposed.count))
            var kept = false
            for part in decomposed.prefix(Int(count)) {
                let type = g_unichar_type(part)
                if type == G_UNICODE_NON_SPACING_MARK || type == G_UNICODE_ENCLOSING_MARK { continue }
                guard let folded = Unicode.Scalar(g_unichar_tolower(part)) else { continue }
                scalars.append(folded)
                origins.append(index)
                kept = true
            }
            // A lone combining mark folds to nothing; anything else keeps at least itself.
            if !kept && count == 0 {
                scalars.append(scalar)
                origins.append(index)
            }
        }
        self.scalars = scalars
        self.origins = origins
        self.marks = marks
    }

    /// The ranges of original scalars where `needle` (already folded) occurs, left to right,
    /// not overlapping.
    public func ranges(of needle: [Unicode.Scalar]) -> [Range<Int>] {
        guard !needle.isEmpty, needle.count <= scalars.count else { return [] }
        var found: [Range<Int>] = []
        var start = 0
        let last = scalars.count - needle.count
        while start <= last {
            if scalars[start] == needle[0] {
                var matched = true
                for offset in 1..<needle.count where scalars[start + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched {
                    var end = origins[start + needle.count - 1] + 1
                    while end < marks.count, marks[end] { end += 1 }
                    found.append(origins[start]..<end)
                    start += needle.count
                    continue
                }
            }
            start += 1
        }
        return found
    }

    /// `text` without its accents (each character's canonical decomposition without combining
    /// marks), when that leaves plain ASCII; otherwise `text` as it is (a script whose marks
    /// matter is searched as typed).
    public static func asciiWithoutAccents(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var decomposed = [gunichar](repeating: 0, count: Int(G_UNICHAR_MAX_DECOMPOSITION_LENGTH))
        for scalar in text.unicodeScalars {
            if scalar.isASCII { out.append(scalar); continue }
            let count = g_unichar_fully_decompose(gunichar(scalar.value), 0, &decomposed, gsize(decomposed.count))
            for part in decomposed.prefix(Int(count)) {
                let type = g_unichar_type(part)
                if type == G_UNICODE_NON_SPACING_MARK || type == G_UNICODE_ENCLOSING_MARK { continue }
                guard let kept = Unicode.Scalar(part), kept.isASCII else { return text }
                out.append(kept)
            }
        }
        return String(out)
    }
}
