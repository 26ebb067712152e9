#if canImport(Glibc)
import Glibc
#endif
import QuireSystem

/// Points fontconfig at the configuration `quire integrate install` wrote beside the program
/// (`PREFIX/share/quire/fonts.conf`) when the system's, `/etc/fonts/fonts.conf`, cannot be read —
/// as inside GNOME's thumbnail sandbox, which shows only `/usr`. Without it fontconfig prints
/// "Cannot load default config file" and text thumbnails use other fonts than outside.
/// Runs once, before cairo (and with it fontconfig) is loaded; a user's `FONTCONFIG_FILE` or
/// `FONTCONFIG_PATH` is left alone.
enum FontconfigFallback {
    static let systemConfiguration = "/etc/fonts/fonts.conf"

    static func applyIfNeeded() {
        guard getenv("FONTCONFIG_FILE") == nil, getenv("FONTCONFIG_PATH") == nil,
              access(systemConfiguration, R_OK) != 0,
              let path = installedConfiguration(), access(path, R_OK) == 0 else { return }
        setenv("FONTCONFIG_FILE", path, 0)
    }

    /// `PREFIX/share/quire/fonts.conf` for the running `PREFIX/bin/quire`.
    static func installedConfiguration() -> String? {
        var parts = ProcessControl.ownExecutable.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return nil }
        parts.removeLast(2)   // bin/quire
        return parts.joined(separator: "/") + "/share/quire/fonts.conf"
    }
}
