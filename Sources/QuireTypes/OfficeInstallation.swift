#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireSystem

/// Where LibreOffice is installed, and whether it is: Quire renders office documents
/// (Word, Excel, PowerPoint, OpenDocument, RTF, iWork) page by page through LibreOfficeKit,
/// loaded at run time from the installed office. Without it, office files show only the
/// preview image some of them carry, and capabilities say so.
public enum OfficeInstallation {
    /// The office's program directory (`lok_init_2`'s install path); `QUIRE_OFFICE_PROGRAM`
    /// overrides it (tests use a missing directory to check the behaviour without LibreOffice).
    public static var programDirectory: String {
        if let override = getenv("QUIRE_OFFICE_PROGRAM"), override.pointee != 0 { return String(cString: override) }
        return "/usr/lib/libreoffice/program"
    }

    /// Whether LibreOfficeKit can be loaded from ``programDirectory`` (its merged library is
    /// there) and the office's configuration can be read (``configuration``). `stat`s and at
    /// most one small read, not a load: capabilities are asked for in every `info`/`actions`.
    public static var isInstalled: Bool {
        (access(programDirectory + "/libmergedlo.so", R_OK) == 0
            || access(programDirectory + "/libsofficeapp.so", R_OK) == 0)
            && configuration != .unreadable
    }

    /// How the office's configuration (the registry: `main.xcd` and one `.xcd` per module)
    /// can be read from here.
    public enum Configuration: Sendable, Hashable {
        /// Where the office's own bootstrap files say (the usual case).
        case asInstalled
        /// Debian links `share/registry` to `/etc/libreoffice/registry` and its
        /// `program/fundamentalrc` names `/etc/libreoffice/registry` as the configuration
        /// layers; GNOME's thumbnail sandbox shows `/usr` but not `/etc`, and LibreOffice
        /// crashes starting without its configuration. The packages also install the same files
        /// under `share/.registry` (the originals their maintainer scripts copy to `/etc` with
        /// ucf; dpkg replaces them with the program, so they always match it): the office reads
        /// those when its `CONFIGURATION_LAYERS` bootstrap variable is `layers` — the
        /// installed value with the hidden directory replaced. The environment comes before
        /// `fundamentalrc` in LibreOffice's bootstrap lookup, so ``OfficeKit`` sets it before the
        /// office starts.
        case packaged(layers: String)
        /// Neither: the office cannot start here.
        case unreadable
    }

    /// How the configuration can be read: as installed when `share/registry/main.xcd` is
    /// readable (or `CONFIGURATION_LAYERS` is already set); else through Debian's packaged
    /// copy (``Configuration/packaged(layers:)``); else not at all.
    public static var configuration: Configuration { configuration(programDirectory: programDirectory) }

    /// ``configuration`` of the office whose program directory is `program`.
    static func configuration(programDirectory program: String) -> Configuration {
        let office = officeDirectory(program)
        if access(office + "/share/registry/main.xcd", R_OK) == 0 { return .asInstalled }
        if let set = getenv("CONFIGURATION_LAYERS"), set.pointee != 0 { return .asInstalled }
        let packaged = office + "/share/.registry"
        guard access(packaged + "/main.xcd", R_OK) == 0,
              let rc = readSmallFile(program + "/fundamentalrc"),
              let layers = packagedLayers(fundamentalrc: rc, packagedDirectory: packaged) else { return .unreadable }
        return .packaged(layers: layers)
    }

    /// `fundamentalrc`'s `CONFIGURATION_LAYERS` with each `xcsxcu:` and `res:` layer whose
    /// directory cannot be read (a literal `file://` URL) pointed at `packagedDirectory`; nil
    /// when there is no such line or no layer needed it (then the copy would not help).
    static func packagedLayers(fundamentalrc: String, packagedDirectory: String) -> String? {
        let prefix = "CONFIGURATION_LAYERS="
        guard let line = fundamentalrc.split(whereSeparator: \.isNewline)
            .first(where: { $0.hasPrefix(prefix) }) else { return nil }
        let replacement = PercentEncoding.fileURL(packagedDirectory.utf8)
        var replaced = false
        let layers = line.dropFirst(prefix.count).split(separator: " ", omittingEmptySubsequences: false).map { token -> String in
            for kind in ["xcsxcu:", "res:"] where token.hasPrefix(kind) {
                let url = token.dropFirst(kind.count)
                guard url.hasPrefix("file://"), !url.contains("$") else { return String(token) }
                let directory = String(decoding: PercentEncoding.decode(url.dropFirst("file://".count)), as: UTF8.self)
                let readable = kind == "xcsxcu:" ? access(directory + "/main.xcd", R_OK) == 0
                                                 : access(directory, R_OK | X_OK) == 0
                guard !readable else { return String(token) }
                if kind == "xcsxcu:" { replaced = true }
                return kind + replacement
            }
            return String(token)
        }
        return replaced ? layers.joined(separator: " ") : nil
    }

    /// The office's root (`/usr/lib/libreoffice`): the program directory's parent.
    static func officeDirectory(_ program: String) -> String {
        if program.hasSuffix("/program") { return String(program.dropLast("/program".count)) }
        return program + "/.."
    }

    /// A bootstrap file (a few kilobytes; nil when unreadable or over 64 KiB).
    private static func readSmallFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while bytes.count <= 65536 {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
            bytes += buffer.prefix(count)
        }
        return nil
    }

    /// The Debian packages that provide the office, for messages ("install …").
    public static let packageHint = "libreoffice-writer, libreoffice-calc, libreoffice-impress"
}
