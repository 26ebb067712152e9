/// What the user asked for. Everything is optional: unset values leave the destination's
/// defaults in place.
public struct PrintOptions: Sendable, Hashable {
    /// One IPP attribute passed through as given (`-o key=value`).
    public struct Attribute: Sendable, Hashable {
        public let key: String
        public let value: String
        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    public enum Sides: String, Sendable, Hashable, CaseIterable {
        case oneSided = "one-sided"
        case twoSidedLongEdge = "two-sided-long-edge"
        case twoSidedShortEdge = "two-sided-short-edge"

        /// Accepts IPP names and the short forms "one", "long", "short", "duplex".
        public init?(argument: String) {
            switch argument.lowercased() {
            case "one", "one-sided", "simplex": self = .oneSided
            case "long", "two-sided-long-edge", "duplex", "two-sided": self = .twoSidedLongEdge
            case "short", "two-sided-short-edge", "tumble": self = .twoSidedShortEdge
            default: return nil
            }
        }
    }

    public enum ColorMode: String, Sendable, Hashable {
        case color, monochrome
    }

    public enum Orientation: Int, Sendable, Hashable {
        case portrait = 3, landscape = 4, reverseLandscape = 5, reversePortrait = 6
    }

    public var copies: Int?
    /// Pages to print, in document pages.
    public var pageRanges: PageRanges?
    public var sides: Sides?
    /// A media name: PWG ("iso_a4_210x297mm") or the scheduler's ("A4", "Letter").
    public var media: String?
    public var colorMode: ColorMode?
    public var orientation: Orientation?
    /// Collate copies (true) or not (false).
    public var collate: Bool?
    /// Document pages per sheet side (1, 2, 4, 6, 9, 16).
    public var numberUp: Int?
    /// Scale each page to fit the media.
    public var fitToPage: Bool = false
    /// Job title; defaults to the file name.
    public var title: String?
    /// Job priority 1...100 (50 is normal).
    public var priority: Int?
    /// `job-hold-until`: "indefinite" holds the job until released; "no-hold" prints now.
    public var holdUntil: String?
    /// Other IPP attributes, passed as given (`-o key=value`). Later entries win.
    public var extra: [Attribute] = []
    /// Whether the document sent is already composed by Quire (pages selected, placed on
    /// sheets, ordered): then no page selection, pages per side, orientation or scaling goes to
    /// CUPS — neither from these options nor from the printer's saved ones — since CUPS would do
    /// it again (and count page ranges after number-up).
    public var composedByQuire = false

    public init() {}

    /// These options for the PDF Quire composed from them (pages selected and placed on sheets of
    /// `media`, ordered): what CUPS must not do again — page selection, pages per side,
    /// orientation, scaling — is left out; `booklet` sets the sides a booklet prints with on a
    /// printer that does (``PrintCapabilities/printsBookletsInOnePass``) or does not print both
    /// sides. The command line and the print sheet send composed jobs through here.
    public func forComposedJob(media composedMedia: String?, booklet: Bool = false, bookletInOnePass: Bool = false) -> PrintOptions {
        var options = self
        options.composedByQuire = true
        options.pageRanges = nil
        options.numberUp = nil
        options.orientation = nil
        options.fitToPage = false
        options.media = composedMedia ?? media
        if booklet { options.sides = bookletInOnePass ? .twoSidedShortEdge : .oneSided }
        return options
    }

    /// Maps `lp -H` values: "hold" → "indefinite", "immediate" → "no-hold"; others as given
    /// ("day-time", "night", "weekend", "HH:MM").
    public static func holdValue(_ argument: String) -> String {
        switch argument.lowercased() {
        case "hold": return "indefinite"
        case "immediate", "resume": return "no-hold"
        default: return argument
        }
    }

    /// Parses one `-o` argument as `lp` does (libcups's `cupsParseOptions`, checked against it
    /// case by case in PrintOptionWordsTests): "key=value" words separated by blanks; a bare
    /// "key" means "key=true", "nokey" "key=false". A backslash takes the next character as it
    /// is. A value that starts with a quote is read in quoted segments ('a b'"c" is "a bc"); in
    /// any other value quotes are plain characters. A value that starts with "{" is a collection,
    /// kept with its braces up to the matching one. An unclosed quote or brace runs to the end,
    /// as in libcups. Unlike libcups, which skips it, an empty name ("=v") is an error.
    public static func parseExtra(_ argument: String) throws(PrintError) -> [Attribute] {
        let characters = Array(argument.unicodeScalars)
        func isBlank(_ character: Unicode.Scalar) -> Bool {
            character == " " || character == "\t" || character == "\n" || character == "\r" || character == "\u{0B}" || character == "\u{0C}"
        }
        var result: [Attribute] = []
        var index = 0
        while index < characters.count {
            while index < characters.count, isBlank(characters[index]) { index += 1 }
            guard index < characters.count else { break }
            var key = ""
            while index < characters.count, characters[index] != "=", !isBlank(characters[index]) {
                key.unicodeScalars.append(characters[index])
                index += 1
            }
            guard index < characters.count, characters[index] == "=" else {
                if key.hasPrefix("no") {
                    if key.count > 2 { result.append(Attribute(String(key.dropFirst(2)), "false")) }
                } else {
                    result.append(Attribute(key, "true"))
                }
                continue
            }
            if key.isEmpty { throw PrintError(.invalidOption, "invalid option \"\(argument)\": empty name") }
            index += 1
            var value = ""
            if index < characters.count, characters[index] == "{" {
                var depth = 0
                while index < characters.count {
                    let character = characters[index]
                    if depth == 0 && isBlank(character) { break }
                    if character == "{" { depth += 1 } else if character == "}" && depth > 0 { depth -= 1 }
                    value.unicodeScalars.append(character)
                    index += 1
                }
            } else {
                let quoting = index < characters.count && (characters[index] == "'" || characters[index] == "\"")
                var quote: Unicode.Scalar?
                while index < characters.count {
                    let character = characters[index]
                    if quote == nil && isBlank(character) { break }
                    index += 1
                    if character == "\\", index < characters.count {
                        value.unicodeScalars.append(characters[index])
                        index += 1
                    } else if quoting, character == quote {
                        quote = nil
                    } else if quoting, quote == nil, character == "'" || character == "\"" {
                        quote = character
                    } else {
                        value.unicodeScalars.append(character)
                    }
                }
            }
            result.append(Attribute(key, value))
        }
        if result.isEmpty { throw PrintError(.invalidOption, "invalid option \"\(argument)\": expected key=value") }
        return result
    }

    /// The options exactly as they would be sent (for `--dry-run`).
    public func cupsOptionsForDisplay(pageRangesValue: String?) -> [(String, String)] {
        cupsOptions(pageRangesValue: pageRangesValue)
    }

    /// The IPP/CUPS options for the job, given the pages that will be sent (nil when the
    /// scheduler should apply ``pageRanges`` itself).
    ///
    /// `pageRangesValue` is the already-validated IPP text, or nil when the pages were selected
    /// before submission (with number-up) or all pages print.
    func cupsOptions(pageRangesValue: String?) -> [(String, String)] {
        var options: [(String, String)] = []
        if let copies { options.append(("copies", String(copies))) }
        if let pageRangesValue { options.append(("page-ranges", pageRangesValue)) }
        if let sides { options.append(("sides", sides.rawValue)) }
        if let media { options.append(("media", media)) }
        if let colorMode { options.append(("print-color-mode", colorMode.rawValue)) }
        if let orientation, !composedByQuire { options.append(("orientation-requested", String(orientation.rawValue))) }
        if let collate {
            options.append(("multiple-document-handling",
                            collate ? "separate-documents-collated-copies" : "separate-documents-uncollated-copies"))
        }
        if !composedByQuire {
            if let numberUp { options.append(("number-up", String(numberUp))) }
            if fitToPage { options.append(("print-scaling", "fit")); options.append(("fit-to-page", "true")) }
        }
        if let priority { options.append(("job-priority", String(priority))) }
        if let holdUntil { options.append(("job-hold-until", holdUntil)) }
        for attribute in extra { options.append((attribute.key, attribute.value)) }
        return options
    }
}
