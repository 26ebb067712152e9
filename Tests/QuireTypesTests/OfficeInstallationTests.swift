import Foundation
@testable import QuireTypes
import Testing

/// Where LibreOffice's configuration is read from: as installed, from the packages' own copy
/// under /usr when the installed layers are hidden (Debian's /etc/libreoffice/registry inside
/// GNOME's thumbnail sandbox), or not at all (then the office counts as not installed).
@Suite("Office installation")
struct OfficeInstallationTests {
    /// An office tree like Debian's, in a temporary directory, whose fundamentalrc names a
    /// configuration directory that does not exist (as /etc/libreoffice/registry inside the sandbox).
    struct FakeOffice {
        let root: String
        var program: String { root + "/office dir/program" }
        var hidden: String { root + "/etc-hidden/registry" }

        init() throws {
            root = NSTemporaryDirectory() + "quire-office-install-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: root + "/office dir/program", withIntermediateDirectories: true)
            let rc = try String(contentsOfFile: "/usr/lib/libreoffice/program/fundamentalrc", encoding: .utf8)
            #expect(rc.contains("xcsxcu:file:///etc/libreoffice/registry"), "Debian's layers changed: \(rc)")
            try rc.replacingOccurrences(of: "file:///etc/libreoffice/registry", with: "file://" + hidden)
                .write(toFile: program + "/fundamentalrc", atomically: true, encoding: .utf8)
        }

        func add(_ relative: String) throws {
            let path = root + "/office dir/" + relative
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data("<oor:data/>".utf8).write(to: URL(fileURLWithPath: path))
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test func hiddenConfigurationWithoutThePackagedCopyIsUnreadable() throws {
        let office = try FakeOffice()
        defer { office.remove() }
        #expect(OfficeInstallation.configuration(programDirectory: office.program) == .unreadable)
    }

    /// The hidden layers (xcsxcu and res) point at share/.registry, percent-encoded; every
    /// other layer (dconf, extensions, the user's) is kept as it was.
    @Test func hiddenConfigurationUsesThePackagedCopy() throws {
        let office = try FakeOffice()
        defer { office.remove() }
        try office.add("share/.registry/main.xcd")
        guard case .packaged(let layers) = OfficeInstallation.configuration(programDirectory: office.program) else {
            Issue.record("expected the packaged copy")
            return
        }
        let copy = "file://" + office.root.replacingOccurrences(of: " ", with: "%20") + "/office%20dir/share/.registry"
        let tokens = layers.split(separator: " ").map(String.init)
        #expect(tokens.first == "xcsxcu:" + copy, "\(layers)")
        #expect(tokens.contains("res:" + copy), "\(layers)")
        #expect(!layers.contains(office.hidden), "\(layers)")
        #expect(tokens.contains("dconf:*"))
        #expect(tokens.last?.hasPrefix("user:!${$BRAND_BASE_DIR/program/bootstraprc:UserInstallation}") == true, "\(layers)")
        #expect(tokens.count == 7, "\(layers)")
    }

    @Test func readableConfigurationIsUsedAsInstalled() throws {
        let office = try FakeOffice()
        defer { office.remove() }
        try office.add("share/.registry/main.xcd")
        try office.add("share/registry/main.xcd")
        #expect(OfficeInstallation.configuration(programDirectory: office.program) == .asInstalled)
    }

    /// Layers that need no replacement (readable, or written with bootstrap macros) give nil:
    /// the packaged copy would not help.
    @Test func nothingToReplaceGivesNil() {
        #expect(OfficeInstallation.packagedLayers(fundamentalrc: "[Bootstrap]\nCONFIGURATION_LAYERS=xcsxcu:${BRAND_BASE_DIR}/share/registry res:${BRAND_BASE_DIR}/share/registry\n",
                                                  packagedDirectory: "/x") == nil)
        #expect(OfficeInstallation.packagedLayers(fundamentalrc: "[Bootstrap]\nBRAND_BASE_DIR=file:///usr/lib/libreoffice\n",
                                                  packagedDirectory: "/x") == nil)
    }

    /// This machine's LibreOffice (Debian's, installed by `make test`): its configuration is
    /// readable here, and the packages install their copy under /usr as well.
    @Test func debianShipsTheConfigurationUnderUsrToo() throws {
        #expect(OfficeInstallation.configuration == .asInstalled)
        #expect(OfficeInstallation.isInstalled)
        #expect(FileManager.default.isReadableFile(atPath: "/usr/lib/libreoffice/share/.registry/main.xcd"))
    }
}
