import QuireSheets
import Testing

@Suite("Sheet composition (pure)")
struct ImpositionTests {
    let a4 = PageBox(width: 595.276, height: 841.89)
    let landscapeA4 = PageBox(width: 841.89, height: 595.276)

    func options(_ words: [(String, String)], paper: String? = "A4") throws -> SheetOptions {
        var options = SheetOptions()
        options.paper = paper.flatMap(PaperSize.named)
        for (name, value) in words { _ = try options.apply(name, value) }
        return options
    }

    @Test func paperNamesAreReadAsPeopleAndPrintersWriteThem() throws {
        let a4 = try #require(PaperSize.named("A4"))
        #expect(a4.name == "iso_a4_210x297mm")
        #expect(abs(a4.width - 595.276) < 0.01 && abs(a4.height - 841.89) < 0.01)
        #expect(PaperSize.named("a5")?.name == "iso_a5_148x210mm")
        #expect(PaperSize.named("Letter").map { ($0.width, $0.height) } ?? (0, 0) == (612, 792))
        #expect(PaperSize.named("na_legal_8.5x14in")?.displayName == "Legal")
        let custom = try #require(PaperSize.named("custom_card_100x150mm"))
        #expect(abs(custom.width - 283.46) < 0.01)
        #expect(custom.displayName == "custom_card_100x150mm")
        for bad in ["A12", "iso_a4", "x_y_axbmm", "iso_a4_-1x297mm", "foo_bar_10x10cm", ""] {
            #expect(PaperSize.named(bad) == nil, "\(bad)")
        }
    }

    @Test func optionValuesAreReadAsLpSpellsThemAndBadOnesRefused() throws {
        var options = SheetOptions()
        #expect(try options.apply("number-up", "4"))
        #expect(options.numberUp == 4)
        #expect(try options.apply("landscape", "true") && options.orientation == .landscape)
        #expect(try options.apply("orientation-requested", "3") && options.orientation == .portrait)
        #expect(try options.apply("fit-to-page", "true") && options.scaling == .fit)
        #expect(try options.apply("print-scaling", "none") && options.scaling == .actual)
        #expect(try options.apply("scaling", "50") && options.scaling == .percent(50))
        #expect(try options.apply("number-up-layout", "tblr") && options.layout == .tblr)
        #expect(try options.apply("page-border", "double-thick") && options.border == .doubleThick)
        #expect(try options.apply("page-set", "odd") && options.pageSet == .odd)
        #expect(try options.apply("outputorder", "reverse") && options.reverse)
        #expect(try options.apply("copies", "2") == false)
        for (name, value) in [("number-up", "3"), ("number-up", "x"), ("number-up-layout", "lrlr"), ("page-set", "both"),
                              ("orientation-requested", "7"), ("scaling", "0"), ("outputorder", "up"), ("page-border", "dotted")] {
            #expect(throws: SheetError.self, "\(name)=\(value)") { _ = try options.apply(name, value) }
        }
    }

    @Test func eightPageBookletIsFourSidesInFoldingOrder() throws {
        let order = Imposition.bookletOrder(8).map { [$0.0, $0.1] }
        #expect(order == [[8, 1], [2, 7], [6, 3], [4, 5]])
        let imposition = try Imposition(pages: Array(1...8), size: { _ in a4 }, options: try options([("booklet", "true")]))
        #expect(imposition.sides.map(\.pages) == [[8, 1], [2, 7], [6, 3], [4, 5]])
        #expect(imposition.sheetCount == 2)
        // Landscape A4 sides, the left page in the left half.
        let first = imposition.sides[0]
        #expect(first.width > first.height)
        #expect(first.placements[0].centerX < first.width / 2 && first.placements[1].centerX > first.width / 2)
    }

    @Test func bookletsArePaddedWithBlanksToAMultipleOfFour() throws {
        let imposition = try Imposition(pages: Array(3...7), size: { _ in a4 }, options: try options([("booklet", "true")]))
        // 5 pages → 8 slots (6–8 blank): 8|1, 2|7, 6|3, 4|5 with slot n holding page n + 2.
        #expect(imposition.sides.map(\.pages) == [[3], [4], [5], [6, 7]])
        #expect(Imposition.sideCount(pages: 5, options: try options([("booklet", "true")])) == 4)
        #expect(throws: SheetError.self) { try Imposition(pages: [1], size: { _ in a4 }, options: try options([("booklet", "true")])) }
    }

    @Test func twoUpOfPagesFiveToTenIsThreeSidesInOrder() throws {
        let opts = try options([("number-up", "2")])
        let imposition = try Imposition(pages: Array(5...10), size: { _ in a4 }, options: opts)
        #expect(imposition.sides.map(\.pages) == [[5, 6], [7, 8], [9, 10]])
        #expect(Imposition.summary(sides: imposition.sides.count, options: opts) == "3 sheets of A4, 3 sides")
        // Portrait pages two up: a landscape side, pages side by side, left to right.
        let side = imposition.sides[0]
        #expect(side.width > side.height)
        #expect(side.placements[0].centerX < side.placements[1].centerX)
        #expect(abs(side.placements[0].scale - 0.7071) < 0.001)
    }

    @Test func layoutOrderFillsTheGridAsAsked() throws {
        func order(_ layout: String) throws -> [Int] {
            let imposition = try Imposition(pages: [1, 2, 3, 4], size: { _ in a4 },
                                            options: try options([("number-up", "4"), ("number-up-layout", layout)]))
            // Reading order of the cells: by rows top to bottom, then left to right.
            return imposition.sides[0].placements.sorted { ($0.centerY, $0.centerX) < ($1.centerY, $1.centerX) }.map(\.page)
        }
        #expect(try order("lrtb") == [1, 2, 3, 4])
        #expect(try order("tblr") == [1, 3, 2, 4])
        #expect(try order("rltb") == [2, 1, 4, 3])
        #expect(try order("btlr") == [2, 4, 1, 3])
    }

    @Test func oddEvenAndReverseWorkOnSides() throws {
        let odd = try Imposition(pages: Array(1...5), size: { _ in a4 }, options: try options([("page-set", "odd")]))
        #expect(odd.sides.map(\.pages) == [[1], [3], [5]])
        let even = try Imposition(pages: Array(1...5), size: { _ in a4 }, options: try options([("page-set", "even")]))
        #expect(even.sides.map(\.pages) == [[2], [4]])
        let reversed = try Imposition(pages: Array(1...3), size: { _ in a4 }, options: try options([("outputorder", "reverse")]))
        #expect(reversed.sides.map(\.pages) == [[3], [2], [1]])
        var duplex = try options([("outputorder", "reverse")])
        duplex.duplex = true
        let sheets = try Imposition(pages: Array(1...3), size: { _ in a4 }, options: duplex)
        // Back to back: sheet 2 (page 3 and a blank back) first, each sheet's front before its back.
        #expect(sheets.sides.map(\.pages) == [[3], [], [1], [2]])
        #expect(Imposition.sideCount(pages: 3, options: duplex) == 4)
        for n in [1, 2, 4, 6, 9, 16] {
            for count in [1, 5, 17] {
                var opts = try options([("number-up", String(n))])
                for set in SheetOptions.PageSet.allCases {
                    opts.pageSet = set
                    let composed = try Imposition(pages: Array(1...count), size: { _ in a4 }, options: opts)
                    #expect(composed.sides.count == Imposition.sideCount(pages: count, options: opts), "n=\(n) count=\(count) \(set)")
                }
            }
        }
    }

    @Test func fitToPageFillsThePrintableAreaOfTheChosenPaper() throws {
        var opts = try options([("fit-to-page", "true")], paper: "A5")
        opts.margins = Margins(top: 18, bottom: 18, left: 18, right: 18)
        let side = try Imposition(pages: [1], size: { _ in a4 }, options: opts).sides[0]
        #expect(abs(side.width - 419.53) < 0.01 && abs(side.height - 595.28) < 0.01)
        let outline = side.placements[0].outline
        // Limited by the width: 419.53 − 36 wide, centred.
        #expect(abs(outline.width - (419.53 - 36)) < 0.05)
        #expect(abs(outline.x - 18) < 0.05)
        // Actual size on A5 overflows and is clipped to the side, centred.
        let actual = try Imposition(pages: [1], size: { _ in a4 }, options: try options([("print-scaling", "none")], paper: "A5")).sides[0]
        #expect(actual.placements[0].scale == 1)
        #expect(abs(actual.placements[0].centerX - actual.width / 2) < 0.01)
    }

    @Test func orientationIsTakenFromThePageShapeUnlessChosen() throws {
        let auto = try Imposition(pages: [1, 2], size: { $0 == 1 ? a4 : landscapeA4 }, options: try options([])).sides
        #expect(auto[0].width < auto[0].height && auto[1].width > auto[1].height)
        let forced = try Imposition(pages: [1], size: { _ in a4 }, options: try options([("landscape", "true")])).sides[0]
        #expect(forced.width > forced.height)
        // Landscape pages two up: a portrait side, one above the other.
        let two = try Imposition(pages: [1, 2], size: { _ in landscapeA4 }, options: try options([("number-up", "2")])).sides[0]
        #expect(two.width < two.height)
        #expect(two.placements[0].centerY < two.placements[1].centerY)
    }

    @Test func nothingToComposeIsIdentity() throws {
        var opts = SheetOptions()
        #expect(opts.isIdentity)
        let side = try Imposition(pages: [2], size: { _ in landscapeA4 }, options: opts).sides[0]
        #expect(side.width == landscapeA4.width && side.placements[0].scale == 1)
        _ = try opts.apply("number-up", "1")
        #expect(opts.isIdentity)
        _ = try opts.apply("page-border", "single")
        #expect(!opts.isIdentity)
    }
}
