import ArgumentParser
import Quire

/// `--csv-as-spreadsheet`, shared by the commands that show or print pages: a CSV or TSV file
/// is laid out by LibreOffice Calc (the pages it prints, with its columns and grid) instead of
/// shown as text with aligned columns (the default).
struct SpreadsheetTextOption: ParsableArguments {
    @Flag(name: .customLong("csv-as-spreadsheet"), help: ArgumentHelp(
        "Lay CSV and TSV files out as spreadsheets with LibreOffice Calc (its printed pages) instead of as text; needs LibreOffice."))
    var csvAsSpreadsheet = false

    /// With the option and no LibreOffice: one line and EX_UNAVAILABLE, before any file is read.
    func requireOffice() throws {
        guard csvAsSpreadsheet, !OfficeInstallation.isInstalled else { return }
        Terminal.error("--csv-as-spreadsheet: LibreOffice Calc is not installed (install libreoffice-calc)")
        throw ExitStatus.unavailable.exitCode
    }
}
