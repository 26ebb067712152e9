import Quire
import QuireSystem
import QuireTypes

/// The integration files for file managers, generated from the type layer so that the MIME
/// types they list are exactly those the code supports.
public enum IntegrationFiles {
    /// - Parameters:
    ///   - executable: how the files invoke Quire: an absolute path, or `quire` when it is on
    ///     `PATH` (system installs).
    ///   - includeUserOnly: whether this is a per-user install, which adds the files that only
    ///     exist per user (Nautilus scripts); a system install adds the desktop entry, its icon
    ///     and the AppStream metainfo (``DesktopApplication``) instead.
    ///   - includeThumbnailer: whether to add the freedesktop `.thumbnailer` file (and, system
    ///     wide, the font configuration its sandbox needs).
    public static func all(executable: String, includeUserOnly: Bool, includeThumbnailer: Bool = true) -> [IntegrationFile] {
        // Exec quoting alone for D-Bus .service files and Thunar; key-file files (.thumbnailer,
        // .nemo_action, .desktop) escape the quoted text once more as a string value.
        let quire = DesktopEntry.quote(executable)
        let exec = DesktopEntry.string(quire)
        let previewable = SupportedTypes.previewable
        let printable = SupportedTypes.printable
        var files: [IntegrationFile] = []
        if includeThumbnailer {
            files.append(thumbnailer(executable: executable, types: SupportedTypes.thumbnailerTypes))
        }
        if includeThumbnailer && !includeUserOnly {
            files.append(sandboxFontConfig(executable: executable))
        }
        // System installs: "Open With → Quire", its icon and AppStream metainfo.
        if !includeUserOnly {
            files += DesktopApplication.files(executable: executable, types: previewable)
        }
        files += [
            IntegrationFile(relativePath: "nemo/actions/quire-print.nemo_action", contents: """
                [Nemo Action]
                Name=Print with Quire…
                Comment=Open the print sheet for the selected files
                Exec=\(exec) look --print -- %F
                Icon-Name=document-print
                Selection=NotNone
                Mimetypes=\(DesktopEntry.list(printable))
                Conditions=exec \(exec) can-print -- %F;

                """, purpose: "Nemo \"Print with Quire…\" (the print sheet), shown only when printing can work"),
            IntegrationFile(relativePath: "nemo/actions/quire-quicklook.nemo_action", contents: """
                [Nemo Action]
                Name=Quick Look
                Comment=Preview the selected files in Quire's Quick Look window
                Exec=\(exec) look -- %F
                Icon-Name=view-preview
                Selection=NotNone
                Mimetypes=\(DesktopEntry.list(previewable))

                """, purpose: "Nemo \"Quick Look\""),
            IntegrationFile(relativePath: "kio/servicemenus/quire.desktop", contents: dolphinQuickLookMenu(exec, previewable),
                            executable: true, purpose: "Dolphin \"Quick Look\" service menu (KDE Frameworks 6)"),
            IntegrationFile(relativePath: "kio/servicemenus/quire-print.desktop", contents: dolphinPrintMenu(exec, printable),
                            executable: true, purpose: "Dolphin \"Print with Quire…\" service menu (KDE Frameworks 6)"),
            IntegrationFile(relativePath: "kservices5/ServiceMenus/quire.desktop", contents: dolphinQuickLookMenu(exec, previewable),
                            purpose: "Dolphin \"Quick Look\" service menu (KDE Frameworks 5)"),
            IntegrationFile(relativePath: "kservices5/ServiceMenus/quire-print.desktop", contents: dolphinPrintMenu(exec, printable),
                            purpose: "Dolphin \"Print with Quire…\" service menu (KDE Frameworks 5)"),
            IntegrationFile(relativePath: "quire/thunar-uca.xml", contents: thunarActions(quire),
                            purpose: "Thunar custom actions: merge into ~/.config/Thunar/uca.xml"),
            IntegrationFile(relativePath: "dbus-1/services/quire-thumbnailer1.service", contents: """
                [D-BUS Service]
                Name=org.freedesktop.thumbnails.Thumbnailer1
                Exec=\(quire) thumbnailer-service

                """, purpose: "D-Bus activation of the thumbnail service (Thumbnailer1)"),
            IntegrationFile(relativePath: "dbus-1/services/quire-cache1.service", contents: """
                [D-BUS Service]
                Name=org.freedesktop.thumbnails.Cache1
                Exec=\(quire) thumbnailer-service

                """, purpose: "D-Bus activation of the thumbnail cache service (Cache1)"),
        ]
        if includeUserOnly {
            files.append(IntegrationFile(relativePath: "nautilus/scripts/Print with Quire", contents: """
                #!/bin/sh
                # Installed by `quire integrate`: the print sheet for the selected files, one after
                # another. Nautilus passes them as arguments; they are handed on as separate
                # arguments, never re-parsed by a shell. (`quire print FILE` prints without asking.)
                [ "$#" -gt 0 ] || exit 0
                exec \(shellQuote(executable)) look --print -- "$@"

                """, executable: true, purpose: "Nautilus script \"Print with Quire\" (the print sheet)"))
            files.append(IntegrationFile(relativePath: "nautilus/scripts/Quick Look with Quire", contents: """
                #!/bin/sh
                # Installed by `quire integrate`: the selected files in Quire's Quick Look window.
                [ "$#" -gt 0 ] || exit 0
                exec \(shellQuote(executable)) look -- "$@"

                """, executable: true, purpose: "Nautilus script \"Quick Look with Quire\""))
        }
        return files
    }

    /// System installs: `quire` finds it as PREFIX/share/quire/fonts.conf beside PREFIX/bin/quire.
    /// Its content depends on this machine's font rules (``SandboxFontConfig``).
    static func sandboxFontConfig(executable: String) -> IntegrationFile {
        let prefix = DirectoryPath.parent(of: DirectoryPath.parent(of: executable))
        let cache = prefix + "/share/" + SandboxFontConfig.cacheRelativePath
        return IntegrationFile(relativePath: SandboxFontConfig.relativePath,
                               contents: SandboxFontConfig.contents(cacheDirectory: cache),
                               purpose: "font configuration for GNOME's thumbnail sandbox, which hides /etc/fonts")
    }

    /// The freedesktop `.thumbnailer` file (Fuzz/DesktopEntryFuzzer reads it back as GNOME does).
    package static func thumbnailer(executable: String, types: [String]) -> IntegrationFile {
        IntegrationFile(relativePath: "thumbnailers/quire.thumbnailer", contents: """
            [Thumbnailer Entry]
            TryExec=\(DesktopEntry.string(executable))
            Exec=\(DesktopEntry.string(DesktopEntry.quote(executable))) thumbnail -s %s %u %o
            MimeType=\(DesktopEntry.list(types))

            """, purpose: "thumbnailer for GNOME, Nemo, Caja and other GIO file managers")
    }

    static func dolphinQuickLookMenu(_ quire: String, _ types: [String]) -> String {
        """
        [Desktop Entry]
        Type=Service
        Name=Quire Quick Look
        MimeType=\(DesktopEntry.list(types))
        Actions=quireQuickLook;
        X-KDE-ServiceTypes=KonqPopupMenu/Plugin
        X-KDE-Priority=TopLevel

        [Desktop Action quireQuickLook]
        Name=Quick Look
        Icon=view-preview
        Exec=\(quire) look -- %F

        """
    }

    /// Dolphin cannot ask `quire can-print` before showing an action: Print… is offered for the
    /// printable types, and when printing cannot work `quire look --print` says why and opens
    /// nothing.
    static func dolphinPrintMenu(_ quire: String, _ types: [String]) -> String {
        """
        [Desktop Entry]
        Type=Service
        Name=Quire Print
        MimeType=\(DesktopEntry.list(types))
        Actions=quirePrint;
        X-KDE-ServiceTypes=KonqPopupMenu/Plugin
        X-KDE-Priority=TopLevel

        [Desktop Action quirePrint]
        Name=Print with Quire…
        Icon=document-print
        Exec=\(quire) look --print -- %F

        """
    }

    static func thunarActions(_ quire: String) -> String {
        let command = xmlEscape("\(quire) look --print -- %F")
        let preview = xmlEscape("\(quire) look -- %F")
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- Quire's custom actions for Thunar: copy the <action> elements into
             ~/.config/Thunar/uca.xml (Edit > Configure custom actions shows them). -->
        <actions>
        <action>
          <icon>document-print</icon>
          <name>Print with Quire…</name>
          <unique-id>quire-print</unique-id>
          <command>\(command)</command>
          <description>Open the print sheet for the selected files</description>
          <patterns>*</patterns>
          <image-files/>
          <other-files/>
          <text-files/>
        </action>
        <action>
          <icon>view-preview</icon>
          <name>Quick Look</name>
          <unique-id>quire-quicklook</unique-id>
          <command>\(preview)</command>
          <description>Preview the selected files in Quire's Quick Look window</description>
          <patterns>*</patterns>
          <image-files/>
          <other-files/>
          <text-files/>
        </action>
        </actions>

        """
    }

    static func xmlEscape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
            .replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
    }

    /// POSIX shell single-quoting, for the program path in the Nautilus scripts.
    static func shellQuote(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
