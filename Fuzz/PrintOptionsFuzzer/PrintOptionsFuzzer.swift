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
import QuireSheets

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
        composeChecked(extra, pageCount: min(pageCount, 400), pages: (try? options.pageRanges?.pages(pageCount: pageCount)) ?? nil)
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

/// The sheet options among the `-o` words (as `quire print` reads them), composed over the
/// document's pages: the side count computed from the page count alone is the count composed,
/// every document page chosen appears on exactly one side (all sides kept), each placement is
/// inside its side, and nothing is scaled to nothing.
func composeChecked(_ extra: [PrintOptions.Attribute], pageCount: Int, pages chosen: [Int]?) {
    var sheet = SheetOptions()
    for attribute in extra {
        if attribute.key == "media" {
            if let paper = PaperSize.named(attribute.value) {
                precondition(paper.width > 0 && paper.width <= paper.height)
                sheet.paper = paper
            }
        } else {
            _ = try? sheet.apply(attribute.key, attribute.value)
        }
    }
    let pages = (chosen ?? Array(1...pageCount)).filter { $0 <= pageCount }
    guard !pages.isEmpty else { return }
    guard let imposition = try? Imposition(pages: pages, size: { page in
        PageBox(width: 200 + Double(page % 7) * 90, height: 300 + Double(page % 5) * 70)
    }, options: sheet) else {
        precondition(sheet.booklet && pages.count < 2, "only a one-page booklet is refused: \(sheet)")
        return
    }
    precondition(imposition.sides.count == Imposition.sideCount(pages: pages.count, options: sheet),
                 "\(imposition.sides.count) sides composed, \(Imposition.sideCount(pages: pages.count, options: sheet)) counted: \(sheet)")
    if sheet.pageSet == .all {
        let placed = imposition.sides.flatMap(\.pages)
        precondition(placed.sorted() == pages.sorted(), "pages placed \(placed) are not the pages chosen \(pages)")
    }
    for side in imposition.sides {
        precondition(side.width > 0 && side.height > 0)
        for placement in side.placements {
            precondition(placement.scale > 0 && placement.scale.isFinite)
            precondition(placement.clip.x >= -0.001 && placement.clip.y >= -0.001
                         && placement.clip.x + placement.clip.width <= side.width + 0.001
                         && placement.clip.y + placement.clip.height <= side.height + 0.001, "cell outside its side")
        }
    }
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
