#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
    /// there). A `stat`, not a load: capabilities are asked for in every `info`/`actions`.
    ///
    /// The office's configuration must be readable too: Debian links
    /// `/usr/lib/libreoffice/share/registry` to `/etc/libreoffice/registry`, which GNOME's
    /// thumbnail sandbox (only `/usr` and `/etc/ld.so.cache`) does not show — LibreOffice
    /// crashes starting without it, so there the office counts as not installed.
    public static var isInstalled: Bool {
        (access(programDirectory + "/libmergedlo.so", R_OK) == 0
            || access(programDirectory + "/libsofficeapp.so", R_OK) == 0)
            && access(programDirectory + "/../share/registry/main.xcd", R_OK) == 0
    }

    /// The Debian packages that provide the office, for messages ("install …").
    public static let packageHint = "libreoffice-writer, libreoffice-calc, libreoffice-impress"
}
