import Quire

/// Quire as a desktop application, for system-wide installs (`make install`, the Debian
/// package): the desktop entry that puts "Open With → Quire" on every type the window previews
/// (`quire look`), its icon, and the AppStream metainfo that describes it to software centres.
/// One ID names all three. The entry is hidden from application menus (`NoDisplay`): `quire look`
/// opens files, it has nothing to show without them.
public enum DesktopApplication {
    /// The application ID (reverse DNS): the desktop file, icon and AppStream component names.
    public static let id = "io.github.quire.Quire"

    /// - Parameter types: what the window previews; the desktop entry leaves out `message/*`
    ///   (e-mail), which desktop-file-validate says applications should not claim.
    static func files(executable: String, types: [String]) -> [IntegrationFile] {
        let openable = types.filter { !$0.hasPrefix("message/") }
        return [desktopEntry(executable: executable, types: openable), icon, metainfo(types: openable)]
    }

    static func desktopEntry(executable: String, types: [String]) -> IntegrationFile {
        let exec = DesktopEntry.string(DesktopEntry.quote(executable))
        return IntegrationFile(relativePath: "applications/\(id).desktop", contents: """
            [Desktop Entry]
            Type=Application
            Name=Quire
            GenericName=Document Previewer
            Comment=Preview documents, pictures, media and archives, and print them
            TryExec=\(DesktopEntry.string(executable))
            Exec=\(exec) look -- %F
            Icon=\(id)
            Terminal=false
            NoDisplay=true
            StartupNotify=true
            Categories=Office;Viewer;
            Keywords=preview;quick look;print;pdf;
            MimeType=\(DesktopEntry.list(types))

            """, purpose: "desktop entry: \"Open With → Quire\" (the Quick Look window) for every type it previews")
    }

    /// A page with a folded corner under a magnifying glass (hand-drawn for Quire).
    static let icon = IntegrationFile(relativePath: "icons/hicolor/scalable/apps/\(id).svg", contents: """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">
          <path d="M28 10h50l24 24v80a6 6 0 0 1-6 6H28a6 6 0 0 1-6-6V16a6 6 0 0 1 6-6z" fill="#f6f5f4" stroke="#5e5c64" stroke-width="4"/>
          <path d="M78 10v24h24" fill="#deddda" stroke="#5e5c64" stroke-width="4" stroke-linejoin="round"/>
          <path d="M36 46h42M36 58h48M36 70h30" stroke="#9a9996" stroke-width="5" stroke-linecap="round"/>
          <circle cx="74" cy="84" r="20" fill="#99c1f1" fill-opacity="0.6" stroke="#1c71d8" stroke-width="7"/>
          <path d="M88 98l16 16" stroke="#1c71d8" stroke-width="10" stroke-linecap="round"/>
        </svg>

        """, purpose: "the application's icon")

    static func metainfo(types: [String]) -> IntegrationFile {
        let mediatypes = types.map { "    <mediatype>\(IntegrationFiles.xmlEscape($0))</mediatype>\n" }.joined()
        return IntegrationFile(relativePath: "metainfo/\(id).metainfo.xml", contents: """
            <?xml version="1.0" encoding="UTF-8"?>
            <component type="desktop-application">
              <id>\(id)</id>
              <metadata_license>FSFAP</metadata_license>
              <name>Quire</name>
              <summary>Preview, thumbnail and print documents</summary>
              <description>
                <p>
                  Quire does for documents on Linux what Quick Look and the print sheet do on Apple
                  systems: it tells what a file is, shows it, thumbnails it and prints it, and it offers
                  Print only when printing can work.
                </p>
                <ul>
                  <li>A Quick Look window for PDF, PostScript, images, SVG, text and source code, office
                    documents, fonts, video, audio and archives, opened from the file manager</li>
                  <li>Thumbnails for file managers, made in a sandbox</li>
                  <li>A print sheet through CUPS, and a command-line tool, quire</li>
                </ul>
              </description>
              <launchable type="desktop-id">\(id).desktop</launchable>
              <provides>
                <binary>quire</binary>
            \(mediatypes)  </provides>
              <categories>
                <category>Office</category>
                <category>Viewer</category>
              </categories>
              <content_rating type="oars-1.1"/>
            </component>

            """, purpose: "AppStream metainfo: what software centres say about Quire")
    }
}
