@testable import QuireRender
import Testing

/// CBZ pages are taken in natural name order, as file managers sort.
@Suite struct NaturalNameOrderTests {
    @Test func numbersCompareByValueAndLettersIgnoreCase() {
        let names = ["page10.jpg", "Page2.jpg", "page1.jpg", "page01b.jpg", "cover.jpg", "page002.jpg", "a/page3.jpg"]
        #expect(names.sorted(by: NaturalNameOrder.areInIncreasingOrder)
                == ["a/page3.jpg", "cover.jpg", "page1.jpg", "page01b.jpg", "Page2.jpg", "page002.jpg", "page10.jpg"])
    }

    @Test func isAStrictOrder() {
        let names = ["x1", "X1", "x01", "x", "x10", "x9y", "x9", "é2", "e2"]
        for a in names {
            #expect(!NaturalNameOrder.areInIncreasingOrder(a, a))
            for b in names where a != b {
                #expect(NaturalNameOrder.areInIncreasingOrder(a, b) != NaturalNameOrder.areInIncreasingOrder(b, a), "\(a) \(b)")
            }
        }
    }
}
