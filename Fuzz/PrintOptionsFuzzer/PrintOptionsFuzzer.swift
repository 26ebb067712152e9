// libFuzzer target: the print options a user types — page ranges (`quire print -P`, the print
// sheet), `-o key=value` (as lp takes them), `--sides` and `-H` values — and the CUPS options
// built from them. Input: four NUL-separated fields: ranges, -o text, sides/hold text, and a
// byte choosing the document's page count (1 to 10,201, so that "1-" stays cheap).
// Properties: every accepted range list prints back to text that parses to the same ranges;
// the selected pages are within the document, without repeats, and their compact IPP form
// selects the same pages; `-o` never yields an empty name or one containing "=" or a space.
// Built with -sanitize=fuzzer (make fuzz); without it, a replay driver runs saved inputs.
import FuzzDriver
import QuirePrint

func fuzzOne(_ bytes: [UInt8]) {
    let fields = FuzzDriver.fields(bytes, 4)
    let pageCount = 1 + Int(fields[3].first ?? 0) * 40
    var options = PrintOptions()
    var pageRangesValue: String?
    if let ranges = try? PageRanges(String(decoding: fields[0], as: UTF8.self)) {
        precondition(!ranges.ranges.isEmpty)
        precondition(ranges.ranges.allSatisfy { $0.lowerBound >= 1 })
        let reparsed = try? PageRanges(ranges.description)
        precondition(reparsed == ranges, "\(ranges) does not parse back to itself")
        if let pages = try? ranges.pages(pageCount: pageCount) {
            precondition(!pages.isEmpty && pages.allSatisfy { (1...pageCount).contains($0) })
            precondition(Set(pages).count == pages.count, "repeated pages in \(ranges)")
            let compact = PageRanges.compact(pages)
            precondition((try? ranges.ippValue(pageCount: pageCount)) == compact)
            let again = try? PageRanges(compact).pages(pageCount: pageCount)
            precondition(again == pages, "\(compact) selects other pages than \(ranges)")
            pageRangesValue = compact
        }
        options.pageRanges = ranges
    }
    let optionText = String(decoding: fields[1], as: UTF8.self)
    if let extra = try? PrintOptions.parseExtra(optionText) {
        precondition(!extra.isEmpty)
        for attribute in extra {
            precondition(!attribute.key.isEmpty && !attribute.key.contains("=") && !attribute.key.contains(" "),
                         "bad option name \"\(attribute.key)\" from \"\(optionText)\"")
        }
        options.extra = extra
    }
    let word = String(decoding: fields[2], as: UTF8.self)
    if let sides = PrintOptions.Sides(argument: word) {
        precondition(PrintOptions.Sides(argument: sides.rawValue) == sides)
        options.sides = sides
    }
    let hold = PrintOptions.holdValue(word)
    precondition(!hold.isEmpty || word.isEmpty)
    options.holdUntil = hold
    let sent = options.cupsOptionsForDisplay(pageRangesValue: pageRangesValue)
    precondition(sent.contains { $0.0 == "job-hold-until" })
}

#if FUZZING
@_cdecl("fuzz_print_options_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzzOne)
}
#else
@main
struct PrintOptionsReplay {
    static func main() throws {
        try FuzzDriver.replay(fuzzOne)
    }
}
#endif
