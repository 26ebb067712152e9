import QuirePrint
import QuireSheets
import Testing

/// How a booklet prints on a printer, decided once for `quire print` and the print sheet.
@Suite("Booklets on one- and two-sided printers")
struct BookletPrintingTests {
    @Test func aDuplexPrinterTakesTheBookletBackToBackInOnePass() {
        var sheet = SheetOptions()
        sheet.booklet = true
        #expect(sheet.fitBooklet(inOnePass: true) == .twoSidedShortEdge)
        #expect(sheet.duplex && sheet.pageSet == .all)
    }

    @Test func aOneSidedPrinterGetsTheFrontsThenTheBacks() {
        var fronts = SheetOptions()
        fronts.booklet = true
        fronts.duplex = true
        #expect(fronts.fitBooklet(inOnePass: false) == .oneSided)
        #expect(!fronts.duplex && fronts.pageSet == .odd, "the fronts first")
        var backs = fronts
        backs.pageSet = .even
        #expect(backs.fitBooklet(inOnePass: false) == .oneSided && backs.pageSet == .even, "the backs asked for stay the backs")
        var sheetsPass = SheetOptions()
        sheetsPass.booklet = true
        _ = sheetsPass.fitBooklet(inOnePass: false, pass: .even)
        #expect(sheetsPass.pageSet == .even, "the print sheet's second pass")
    }

    @Test func noBookletIsLeftAsItIs() {
        var sheet = SheetOptions()
        sheet.duplex = true
        sheet.pageSet = .odd
        #expect(sheet.fitBooklet(inOnePass: false) == nil)
        #expect(sheet.duplex && sheet.pageSet == .odd)
    }
}
