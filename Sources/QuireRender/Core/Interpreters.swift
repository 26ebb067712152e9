/// Where and how the programs that interpret a document — LibreOffice, GStreamer's discoverer,
/// Ghostscript — run for one ``Renderer``: given by its caller and passed down to the engines,
/// never installed process-wide. ``here`` (the default) runs them in this process as they are;
/// the render worker adds Ghostscript's private `$TMPDIR` (``worker``); `quire`'s one-shot
/// commands send them to a sandboxed worker (``host``).
public struct Interpreters: Sendable {
    /// Where they run outside this process; nil: here.
    public var host: (any InterpreterHost)?
    /// Ghostscript runs with `$TMPDIR` naming an empty directory made for each call and removed
    /// after it (`-dSAFER` lets a document read, write and delete in `$TMPDIR`). It changes the
    /// process's environment while Ghostscript runs, so it is for processes where nothing else
    /// reads `$TMPDIR` meanwhile (`quire`'s commands and its render worker), not for a test
    /// runner whose other tests make temporary files at the same time.
    public var privateTemporaryDirectory: Bool

    public init(host: (any InterpreterHost)? = nil, privateTemporaryDirectory: Bool = false) {
        self.host = host
        self.privateTemporaryDirectory = privateTemporaryDirectory
    }

    /// In this process, as they are (a library's default).
    public static let here = Interpreters()
    /// In this process, Ghostscript with a private `$TMPDIR`: the render worker.
    public static let worker = Interpreters(privateTemporaryDirectory: true)
}
