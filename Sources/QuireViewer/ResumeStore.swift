#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FoundationEssentials
import Quire
import QuireGIO

/// Where the user left each file: page (or text line) and zoom, kept in
/// `$XDG_STATE_HOME/quire/viewer-state.json` (default `~/.local/state/quire/`), keyed by the
/// file's URI and valid only while the file's modification time is unchanged.
///
/// The file is small (the most recently used ``maximumEntries`` files), written atomically
/// (temporary file + rename, mode 0600) and merged with what another viewer wrote meanwhile.
/// A missing, unreadable or malformed state file means "start at the beginning", never an error.
public struct ResumeStore: Sendable {
    /// What is remembered for one file.
    public struct Entry: Sendable, Hashable, Codable {
        /// Modification time the position belongs to ("seconds.nanoseconds").
        public var mtime: String
        /// 0-based page (paged documents) or top line (text).
        public var position: Int
        /// 1 = fit to the window.
        public var zoom: Double
        /// Seconds since the epoch when this was saved (the oldest entries are dropped first).
        public var used: Int64
    }

    private struct StateFile: Codable {
        var version: Int
        var files: [String: Entry]
    }

    /// The state file.
    public let path: String
    public static let maximumEntries = 500

    public init(path: String) {
        self.path = path
    }

    /// The per-user store: `$XDG_STATE_HOME/quire/viewer-state.json`, falling back to
    /// `$HOME/.local/state` as the XDG base directory specification says.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> ResumeStore {
        ResumeStore(path: PrivateJSONFile<StateFile>.base("XDG_STATE_HOME", fallback: ".local/state", environment: environment)
                    + "/quire/viewer-state.json")
    }

    /// The key for a file: its canonical `file://` URI.
    public static func key(for path: DocumentPath) -> String? {
        guard let absolute = FileURI.canonicalPath(path.bytes) else { return nil }
        return try? FileURI.uri(forAbsolutePath: absolute)
    }

    static func mtimeText(_ time: FileTime) -> String { "\(time.seconds).\(time.nanoseconds)" }

    /// The saved position of `file`, if it was saved for this very version of the file.
    public func position(for file: InputFile) -> Entry? {
        guard let key = Self.key(for: file.path), let entry = load()[key] else { return nil }
        return entry.mtime == Self.mtimeText(file.modificationTime) ? entry : nil
    }

    /// Remembers positions (URI → entry), merged into what is on disk; writes atomically.
    /// - Returns: nil on success, else why the state could not be written.
    @discardableResult
    public func save(_ updates: [String: Entry]) -> String? {
        guard !updates.isEmpty else { return nil }
        var files = load()
        for (key, entry) in updates { files[key] = entry }
        if files.count > Self.maximumEntries {
            let keep = files.sorted { $0.value.used > $1.value.used }.prefix(Self.maximumEntries)
            files = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
        }
        return PrivateJSONFile<StateFile>(path: path).save(StateFile(version: 1, files: files), sortedKeys: true, what: "the viewer state")
    }

    /// Everything saved (empty when the file is missing or not a state file).
    public func load() -> [String: Entry] {
        guard let state = PrivateJSONFile<StateFile>(path: path).load(), state.version == 1 else { return [:] }
        return state.files
    }

    /// An entry for `file` now.
    public static func entry(for file: InputFile, position: Int, zoom: Double) -> Entry {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Entry(mtime: mtimeText(file.modificationTime), position: position, zoom: zoom, used: Int64(now.tv_sec))
    }
}
