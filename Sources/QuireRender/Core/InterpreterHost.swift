import QuireTypes

/// Somewhere outside this process where the programs that interpret a document run: a render
/// worker under bubblewrap (QuireRenderService's `OneShotSandbox`, for `quire`'s one-shot
/// commands). Each call returns nil when it cannot be done there (no working bubblewrap, a
/// file that cannot be named to another process): the engine then runs here.
public protocol InterpreterHost: Sendable {
    /// `file` (with `password`; delimited text as a spreadsheet when `csvAsSpreadsheet`) as
    /// LibreOffice's PDF.
    func officePDF(_ file: InputFile, password: String?, csvAsSpreadsheet: Bool) throws(DocumentError) -> [UInt8]?
    /// A video or audio file's facts (GStreamer's discoverer decodes to learn them).
    func mediaInfo(_ file: InputFile) throws(DocumentError) -> MediaInfo?
    /// `file` opened with `tool` ("Ghostscript", "GStreamer", "LibreOffice"), its pages drawn
    /// there; `firstPageOnly`: only page 1 is wanted.
    func pages(_ file: InputFile, tool: String, firstPageOnly: Bool) throws(DocumentError) -> InterpreterIsolation.Pages?
}
