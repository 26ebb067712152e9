import QuireSheets

extension SheetOptions {
    /// Fits a booklet to the printer, for the command line and the print sheet alike: back to
    /// back, flipped on the short edge, where the printer does that in one pass
    /// (``PrintCapabilities/printsBookletsInOnePass``); otherwise in two passes on one side —
    /// `pass` (or the sides already chosen, or the fronts: the odd sides), then the other.
    /// Returns the sides the job prints with; nil (and nothing changed) when this is no booklet.
    public mutating func fitBooklet(inOnePass: Bool, pass: PageSet? = nil) -> PrintOptions.Sides? {
        guard booklet else { return nil }
        if inOnePass {
            duplex = true
            return .twoSidedShortEdge
        }
        duplex = false
        pageSet = pass ?? (pageSet == .all ? .odd : pageSet)
        return .oneSided
    }
}
