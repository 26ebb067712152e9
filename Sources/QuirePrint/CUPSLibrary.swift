internal import CCUPS

/// libcups, loaded on first use (see `Sources/CCUPS/shim.h`). Every call into libcups goes
/// through ``libcups`` (``api``); ``CUPSConnection`` checks ``isAvailable`` first and reports a missing
/// library as an unavailable print system.
enum CUPSLibrary {
    private static let table: quire_cups_api? = quire_cups_api_load()?.pointee

    /// Whether libcups.so.2 is installed and has every entry point Quire uses.
    static var isAvailable: Bool { table != nil }

    /// The entry points. Only reached after ``isAvailable`` was checked on the way in.
    static var api: quire_cups_api {
        guard let table else { preconditionFailure("libcups.so.2 is not loaded; CUPSConnection checks this first") }
        return table
    }
}

/// libcups's entry points, loaded on first use: `libcups.cupsGetDests2(…)` (named like
/// QuireRender's `libcairo` and `libpoppler`: the library, not a connection or a printer).
var libcups: quire_cups_api { CUPSLibrary.api }
