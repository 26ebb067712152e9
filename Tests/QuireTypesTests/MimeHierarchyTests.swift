import Foundation
import QuireGIO
import QuireTestSupport
@testable import QuireTypes
import Testing

/// The is-a relations read from shared-mime-info's `subclasses` and `aliases` files, a line at a
/// time on demand (``MimeHierarchy``).
@Suite("MIME hierarchy")
struct MimeHierarchyTests {
    /// Two data directories: the first one's lines come first and its aliases win.
    @Test func readsOnlyTheNamedTypesLinesInDirectoryOrder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("quire-mime-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let user = root.appendingPathComponent("user/mime"), system = root.appendingPathComponent("system/mime")
        try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: system, withIntermediateDirectories: true)
        try Data("""
            application/x-child application/x-mid
            application/x-childish application/x-wrong
            application/x-child\tapplication/x-tab-is-not-a-separator
            application/x-child   \r
            application/x-child  application/x-spaced \t\r
            """.utf8).write(to: user.appendingPathComponent("subclasses"))
        try Data("""
            application/x-mid application/x-base
            application/x-child application/x-mid
            application/x-child application/x-second
            application/x-alias application/x-wrong-alias
            """.utf8).write(to: system.appendingPathComponent("subclasses"))
        try Data("application/x-alias application/x-child\n".utf8).write(to: user.appendingPathComponent("aliases"))
        try Data("application/x-alias application/x-other\ntext/x-old text/x-new\n".utf8)
            .write(to: system.appendingPathComponent("aliases"))

        let hierarchy = MimeHierarchy(directories: [user.path, system.path, root.appendingPathComponent("missing").path])
        #expect(hierarchy.directParents(of: "application/x-child")
                == ["application/x-mid", "application/x-spaced", "application/x-second", "application/octet-stream"])
        #expect(hierarchy.ancestors(of: "application/x-child")
                == ["application/x-mid", "application/x-spaced", "application/x-second", "application/x-base", "application/octet-stream"])
        #expect(hierarchy.canonical("application/x-alias") == "application/x-child")
        #expect(hierarchy.canonical("text/x-old") == "text/x-new")
        #expect(hierarchy.canonical("application/x-child") == "application/x-child")
        // An alias is resolved before its parents are looked up; a text type is a text/plain.
        #expect(hierarchy.ancestors(of: "application/x-alias").first == "application/x-mid")
        #expect(hierarchy.ancestors(of: "text/x-old") == ["text/plain", "application/octet-stream"])
        #expect(hierarchy.ancestors(of: "inode/directory") == [])
        // Asked again, the kept answer is the same.
        #expect(hierarchy.ancestors(of: "application/x-child").count == 5)
    }

    /// Every ancestor Quire names for every type shared-mime-info installs is one GIO agrees
    /// the type is (g_content_type_is_a reads the same relations from mime.cache).
    @Test func everyInstalledTypesAncestorsAgreeWithGIO() throws {
        let types = try String(contentsOfFile: "/usr/share/mime/types", encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(types.count > 500)
        var checked = 0
        for type in types {
            let ancestors = MimeHierarchy.shared.ancestors(of: type)
            for ancestor in ancestors {
                #expect(SharedMimeInfo.isA(type, ancestor), "\(type) is not a \(ancestor) for GIO")
                checked += 1
            }
        }
        #expect(checked > types.count)   // most types have a parent besides octet-stream
        #expect(MimeHierarchy.shared.ancestors(of: "image/svg+xml").contains("application/xml"))
        #expect(MimeHierarchy.shared.canonical("application/x-pdf") == "application/pdf")
    }
}
