internal import CCUPS

/// libcups, loaded on first use (see `Sources/CCUPS/shim.h`). Every call into libcups goes
/// through ``api``; ``CUPSConnection`` checks ``isAvailable`` first and reports a missing
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

/// Shorthand used at the call sites: `cups.cupsGetDests2(…)`.
var cups: quire_cups_api { CUPSLibrary.api }
