import QuireTypes
import Synchronization

/// Where a video or audio file's facts are read (GStreamer's discoverer, which decodes to learn
/// the streams' formats): in this process (the render worker's, or any process without a
/// sandbox to put it in), or in a render worker under bubblewrap, for `quire info` — so a
/// hostile file's decoder runs in the sandbox, under the worker's memory limit, and not in the
/// command. QuireRenderService installs that reader (``readInIsolation(_:)``); this module knows
/// only that there may be one (as ``OfficeConversion`` for LibreOffice).
public enum MediaFacts {
    /// Reads `file`'s facts outside this process, or returns nil when there is nowhere to do
    /// that (no working bubblewrap): they are then read in this process.
    public typealias Isolated = @Sendable (_ file: InputFile) throws(DocumentError) -> MediaInfo?

    private static let isolated = Mutex<Isolated?>(nil)

    /// Sends this process's media facts to `reader` (set once, at start-up).
    public static func readInIsolation(_ reader: @escaping Isolated) {
        isolated.withLock { $0 = reader }
    }

    /// The file's facts, from the isolated reader when there is one.
    public static func read(_ file: InputFile) throws(DocumentError) -> MediaInfo {
        if let reader = isolated.withLock({ $0 }), let info = try reader(file) { return info }
        return try MediaInfo.read(file)
    }
}
