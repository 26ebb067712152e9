#if canImport(Glibc)
import Glibc
#endif
import QuireSystem
import QuireTypes

/// The fontconfig configuration Quire uses where `/etc/fonts` is hidden: GNOME's thumbnail
/// sandbox shows only `/usr`, so fontconfig there prints "Cannot load default config file" and
/// falls back to no configuration (no aliases such as `monospace`, different fonts in text
/// thumbnails). Written at install time under `PREFIX/share/quire/fonts.conf`, it names the same
/// font directories and includes the same rule files as the system's configuration, by their
/// paths under `/usr`; `quire` points `FONTCONFIG_FILE` at it only when `/etc/fonts/fonts.conf`
/// cannot be read (QuireRender's `FontconfigFallback`).
///
/// The sandbox hides the system's font cache too, and has no writable cache directory: fontconfig
/// would rescan every font on each run and print "No writable cache directories". So install
/// also builds a cache beside the file (``buildCache(dataDirectory:)``), which the sandbox can read.
public enum SandboxFontConfig {
    /// Where it goes, relative to the data directory (`PREFIX/share`).
    public static let relativePath = "quire/fonts.conf"
    /// The prebuilt font cache, relative to the data directory.
    public static let cacheRelativePath = "quire/fontconfig-cache"

    /// The configuration for this system: the rule files `/etc/fonts/conf.d` enables that
    /// resolve to files under `/usr` (Debian links them from `/usr/share/fontconfig/conf.avail`),
    /// in fontconfig's order (by name).
    /// - Parameter cacheDirectory: the prebuilt cache as the running program will see it.
    public static func contents(cacheDirectory: String, ruleDirectory: String = "/etc/fonts/conf.d") -> String {
        var rules: [String] = []
        if let directory = opendir(ruleDirectory) {
            defer { closedir(directory) }
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name.hasSuffix(".conf") { names.append(name) }
            }
            for name in names.sorted() {
                guard let real = realpath(ruleDirectory + "/" + name, nil) else { continue }
                let path = String(cString: real)
                free(real)
                if path.hasPrefix("/usr/") && !path.contains("<") && !path.contains("&") { rules.append(path) }
            }
        }
        let includes = rules.map { "  <include ignore_missing=\"yes\">\($0)</include>\n" }.joined()
        return """
            <?xml version="1.0"?>
            <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
            <!-- Written by `quire integrate install`: the system's font configuration by paths under
                 /usr, for sandboxes that hide /etc/fonts (GNOME's thumbnailers). Quire uses it only
                 when /etc/fonts/fonts.conf cannot be read. -->
            <fontconfig>
              <dir>/usr/share/fonts</dir>
              <dir>/usr/local/share/fonts</dir>
              <cachedir>\(cacheDirectory)</cachedir>
              <cachedir>/var/cache/fontconfig</cachedir>
            \(includes)</fontconfig>

            """
    }

    /// Scans the fonts the configuration names into `dataDirectory/quire/fontconfig-cache`
    /// (fontconfig, loaded with dlopen as cairo would load it). Returns why it could not, or nil.
    public static func buildCache(dataDirectory: String) -> String? {
        let cache = dataDirectory + "/" + cacheRelativePath
        if let failure = DirectoryPath.create(cache) {
            return "cannot create \(cache): \(failure.description)"
        }
        // The same fonts and rules, with only this cache directory: fontconfig writes the cache
        // of every font directory it scans into the first writable one, and would otherwise find
        // the system's caches and write nothing here.
        let configuration = contents(cacheDirectory: cache)
            .replacing("  <cachedir>/var/cache/fontconfig</cachedir>\n", with: "")
        guard let library = dlopen("libfontconfig.so.1", RTLD_NOW | RTLD_LOCAL) else {
            return "fontconfig (libfontconfig1) is not installed"
        }
        typealias Create = @convention(c) () -> OpaquePointer?
        typealias Parse = @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, Int32) -> Int32
        typealias Build = @convention(c) (OpaquePointer?) -> Int32
        typealias Destroy = @convention(c) (OpaquePointer?) -> Void
        guard let create = dlsym(library, "FcConfigCreate"), let parse = dlsym(library, "FcConfigParseAndLoadFromMemory"),
              let build = dlsym(library, "FcConfigBuildFonts"), let destroy = dlsym(library, "FcConfigDestroy") else {
            return "fontconfig lacks FcConfigParseAndLoadFromMemory (fontconfig 2.12.91 or later is needed)"
        }
        guard let config = unsafeBitCast(create, to: Create.self)() else { return "fontconfig: out of memory" }
        defer { unsafeBitCast(destroy, to: Destroy.self)(config) }
        let parsed = configuration.withCString { text in
            text.withMemoryRebound(to: UInt8.self, capacity: configuration.utf8.count + 1) {
                unsafeBitCast(parse, to: Parse.self)(config, $0, 1)
            }
        }
        guard parsed != 0 else { return "fontconfig could not read the configuration written for the sandbox" }
        guard unsafeBitCast(build, to: Build.self)(config) != 0 else { return "fontconfig could not scan the fonts" }
        return nil
    }

    /// Removes the prebuilt cache (its files, then the directory).
    public static func removeCache(dataDirectory: String) {
        let cache = dataDirectory + "/" + cacheRelativePath
        guard let directory = opendir(cache) else { return }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { unlink(cache + "/" + name) }
        }
        closedir(directory)
        rmdir(cache)
    }
}
