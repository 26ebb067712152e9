import QuireTypes

/// Where a video or audio file's facts are read (GStreamer's discoverer, which decodes to learn
/// the streams' formats): in this process (the render worker's, or any process without a
/// sandbox to put it in), or in a render worker under bubblewrap, for `quire info` — so a
/// hostile file's decoder runs in the sandbox, under the worker's memory limit, and not in the
/// command. The caller says which (``Interpreters/host``), as for LibreOffice (``OfficeConversion``).
public enum MediaFacts {
    /// The file's facts, read where `interpreters` says.
    public static func read(_ file: InputFile, interpreters: Interpreters = .here) throws(DocumentError) -> MediaInfo {
        if let info = try interpreters.host?.mediaInfo(file) { return info }
        return try MediaInfo.read(file)
    }
}
