import Foundation
import QuireTestSupport
@testable import QuireTypes
import Testing

/// Magic priorities read from the installed shared-mime-info database (`mime.cache`); the
/// expected numbers are those of /usr/share/mime/packages/freedesktop.org.xml (2.2).
@Suite("shared-mime-info magic priorities")
struct MimeMagicTests {
    let magic = MimeMagic.shared

    @Test("the priority of the rule that matches", arguments: [
        ("text/x-csrc", "/* a comment */", 30),
        ("text/x-modelica", "class Foo", 50),
        ("text/x-modelica", "// x", 10),
        ("application/x-perl", "use strict;", 40),
        ("application/x-php", "<?php echo 1;", 80),
        ("image/x-eps", "%!PS-Adobe-3.0 EPSF-3.0", 90),
        ("application/pdf", "%PDF-1.7\n", 50),
    ])
    func priorities(type: String, text: String, priority: Int) {
        #expect(magic.priority(of: type, matching: Array(text.utf8)) == priority)
    }

    @Test func nestedRulesAndMisses() {
        // iWork: "PK\3\4" then the first entry's name at byte 30.
        var zip: [UInt8] = [0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 0, count: 26)
        zip += Array("Index/Document.iwa".utf8)
        #expect(magic.priority(of: "application/vnd.apple.pages", matching: zip) == 70)
        #expect(magic.priority(of: "application/vnd.apple.numbers", matching: zip) == 65)
        #expect(magic.priority(of: "application/vnd.apple.pages", matching: Array(zip.prefix(32))) == nil)
        #expect(magic.priority(of: "application/pdf", matching: Array("hello".utf8)) == nil)
        #expect(magic.hasRules(for: "image/png"))
        #expect(!magic.hasRules(for: "text/x-java"))
    }

    @Test func aDamagedCacheIsIgnored() throws {
        let directory = TemporaryDirectory("quire-mime")
        var bytes: [UInt8] = [0, 1, 0, 2] + [UInt8](repeating: 0xFF, count: 60)
        #expect(FileManager.default.createFile(atPath: directory.file("mime.cache"), contents: Data(bytes)))
        #expect(!MimeMagic(directories: [directory.path]).hasRules(for: "application/pdf"))
        // Offsets pointing anywhere: still no crash, no match.
        bytes = [0, 1, 0, 2] + [UInt8](repeating: 0, count: 20) + [0, 0, 0, 28] + [0, 0, 0, 1, 0, 0, 0, 8, 0, 0, 0, 40]
            + [0, 0, 0, 50, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0]
        #expect(FileManager.default.createFile(atPath: directory.file("mime.cache"), contents: Data(bytes)))
        let damaged = MimeMagic(directories: [directory.path])
        #expect(damaged.priority(of: "", matching: Array("data".utf8)) == nil)
    }
}
