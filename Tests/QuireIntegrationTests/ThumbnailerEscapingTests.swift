import Foundation
import QuireIntegration
import QuireTestSupport
import Testing

/// The `.thumbnailer` file for executables in awkward places, read back by GLib itself
/// (GKeyFile, then g_shell_parse_argv, as GNOME's thumbnail factory reads it), through
/// /usr/bin/python3's GObject bindings. Regressions of Fuzz/DesktopEntryFuzzer's findings:
/// TryExec was written Exec-quoted ("…" around a path with a space), and `"`, `$`, `` ` ``, `\`
/// were escaped for the Exec layer only, so GKeyFile rejected the value; a `"` followed by a
/// combining mark (one Character) went out unescaped, breaking the Exec line.
@Suite("Thumbnailer file escaping, read back by GLib")
struct ThumbnailerEscapingTests {
    static let executables = [
        "/usr/bin/quire",
        "/home/a user/My Apps/quire",
        "/opt/q$uire%x/\"b\\ack`tick",
        " /leading space/quire",
        "/tab\there/new\nline/quire",
        "/semi;colon/#hash/'single'/quire",
        "/tmp/a\"\u{0301}b/quire",
        "\u{0611}\u{030C}/quire",
    ]

    @Test(arguments: executables)
    func glibReadsBackTheExecutable(executable: String) throws {
        let files = IntegrationFiles.all(executable: executable, includeUserOnly: false)
        let thumbnailer = try #require(files.first { $0.relativePath == "thumbnailers/quire.thumbnailer" })
        let directory = TemporaryDirectory()
        let path = directory.file("quire.thumbnailer")
        try Data(thumbnailer.contents.utf8).write(to: URL(fileURLWithPath: path))
        let script = """
            import sys, gi
            from gi.repository import GLib
            k = GLib.KeyFile()
            k.load_from_file(sys.argv[1], GLib.KeyFileFlags.NONE)
            g = "Thumbnailer Entry"
            assert k.get_keys(g)[0] == ["TryExec", "Exec", "MimeType"], k.get_keys(g)[0]
            ok, argv = GLib.shell_parse_argv(k.get_string(g, "Exec"))
            argv = [a.replace("%%", "%") for a in argv]
            sys.stdout.write("\\0".join([k.get_string(g, "TryExec")] + argv))
            """
        let result = ProcessRunner.run(["/usr/bin/python3", "-c", script, path])
        #expect(result.status == 0, "\(result.standardError)")
        let fields = String(decoding: result.standardOutput, as: UTF8.self).split(separator: "\0", omittingEmptySubsequences: false)
            .map(String.init)
        #expect(fields == [executable, executable, "thumbnail", "-s", "%s", "%u", "%o"])
    }
}
