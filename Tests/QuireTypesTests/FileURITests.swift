import Foundation
import QuireGIO
import QuireTestSupport
import Testing

/// `FileURI`, Quire's one path ↔ `file://` conversion, agrees with GLib as a file manager runs
/// it (asked through python3), and reads back only what names a file on this machine.
@Suite struct FileURITests {
    @Test func pathsBecomeTheURIsGLibGives() throws {
        let directory = Array("/tmp/quire dir".utf8)
        let cases = AwkwardFileNames.all.map { name in
            (absolute: directory + [0x2F] + name.bytes, argument: Array("../quire dir/./".utf8) + name.bytes,
             directory: Array("/tmp/elsewhere".utf8))
        }
        let answers = try GLibReference.answers(cases)
        for ((label, _), (paths, answer)) in zip(AwkwardFileNames.all, zip(cases, answers)) {
            #expect(answer.uri == answer.commandLineURI, "\(label): GLib's own two ways agree")
            #expect(FileURI.uri(forPath: paths.absolute) == answer.uri, "\(label)")
            #expect(FileURI.uri(forPath: paths.argument, relativeTo: paths.directory) == answer.uri, "\(label) given relatively")
            #expect(FileURI.localPath(ofURI: answer.uri) == paths.absolute, "\(label) reads back")
            #expect(answer.uri.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "\(label): \(answer.uri) is plain ASCII")
            #expect(!answer.uri.dropFirst(7).contains("#") && !answer.uri.contains("?"), "\(label): escaped")
        }
    }

    @Test func relativePathsAreResolvedAgainstTheWorkingDirectory() throws {
        let working = FileManager.default.currentDirectoryPath
        let expected = try #require(FileURI.uri(forPath: Array((working + "/x y.pdf").utf8)))
        #expect(FileURI.uri(forPath: Array("a/../x y.pdf".utf8)) == expected)
        #expect(FileURI.uri(forPath: Array("./x y.pdf".utf8)) == expected)
        #expect(FileURI.uri(forPath: Array("/a/./b/../c.txt".utf8)) == "file:///a/c.txt")
        #expect(FileURI.uri(forPath: Array("/a///b/".utf8)) == "file:///a/b")
        #expect(FileURI.uri(forPath: [0x2F, 0x61, 0, 0x62]) == nil, "a NUL byte")
    }

    @Test func onlyLocalFileURIsGiveAPath() {
        #expect(FileURI.localPath(ofURI: "file:///etc/x") == Array("/etc/x".utf8))
        #expect(FileURI.localPath(ofURI: "file://localhost/etc/x") == Array("/etc/x".utf8))
        #expect(FileURI.localPath(ofURI: "FILE://LocalHost/etc/x") == Array("/etc/x".utf8))
        #expect(FileURI.localPath(ofURI: "file://elsewhere/etc/x") == nil, "another host")
        #expect(FileURI.localPath(ofURI: "http://example.com/x") == nil)
        #expect(FileURI.localPath(ofURI: "file:etc/x") == nil)
        #expect(FileURI.localPath(ofURI: "file://") == nil)
        #expect(FileURI.localPath(ofURI: "file:///a%00b") == nil, "an escaped NUL")
        #expect(FileURI.localPath(ofURI: "file:///a%2Fb") == nil, "an escaped slash")
        #expect(FileURI.localPath(ofURI: "file:///a%zzb") == nil, "a broken escape")
        // Spelled differently, the same file: lowercase escapes, dot segments, a fragment.
        #expect(FileURI.localPath(ofURI: "file:///tmp/%c3%bc/./x/../%ff.pdf#page=2") == Array("/tmp/ü/".utf8) + [0xFF] + Array(".pdf".utf8))
        // `?` is part of a file URI's path, as GLib reads it.
        #expect(FileURI.localPath(ofURI: "file:///tmp/a?b") == Array("/tmp/a?b".utf8))
    }
}
