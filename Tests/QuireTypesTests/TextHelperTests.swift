import Foundation
import QuireTypes
import Testing
import Synchronization
import QuireSystem

/// The small text and path helpers that replace Foundation-only API in the library (the
/// library links FoundationEssentials only). Each is checked against what Foundation itself
/// answers for the same input, so the replacement keeps the old behaviour.
@Suite struct TextHelperTests {
    @Test(arguments: ["", "   ", "\t a b \t", " \u{00A0}x\u{2003}", "x", "\n x \n", " \r\n\t"])
    func trimmingMatchesFoundation(text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
        #expect(text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(text[...].trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
    }

    @Test(arguments: ["plain", "a%20b", "caf%C3%A9", "%2", "%zz%41", "100%", "%E2%82", "%2F..%2Fx", "%41%4a%6b"])
    func percentDecodingMatchesFoundation(text: String) {
        #expect(PercentEncoding.decodedString(text) == text.removingPercentEncoding, "\(text)")
    }

    @Test func percentDecodingKeepsBytesThatAreNotUTF8() {
        #expect(PercentEncoding.decode("a%FFb") == [0x61, 0xFF, 0x62])
        #expect(PercentEncoding.decodedString("a%FFb") == nil)
    }

    /// LibreOffice's URLs: a path's bytes as a `file://` URL that decodes back to the same bytes,
    /// as Foundation writes the reserved characters it escapes.
    @Test func fileURLsEscapeEveryReservedByteAndDecodeBack() {
        let path: [UInt8] = Array("/tmp/a b/#1?x%y&café".utf8) + [0xFF]
        let url = PercentEncoding.fileURL(path)
        #expect(url == "file:///tmp/a%20b/%231%3Fx%25y%26caf%C3%A9%FF")
        #expect(PercentEncoding.decode(url.dropFirst("file://".count)) == path)
        #expect(URL(string: PercentEncoding.fileURL(Array("/tmp/a b/#1".utf8)))?.path == "/tmp/a b/#1")
    }

    @Test(arguments: [(0.0, 1), (0.04, 1), (0.05, 1), (2.345, 2), (999.94, 1), (1234.5, 0), (-1.25, 1), (7, 2),
                      (0.123456, 4), (1e300, 1), (-0.01, 1)])
    func fixedDecimalsMatchPrintf(value: Double, decimals: Int) {
        #expect(DecimalText.fixed(value, decimals) == String(format: "%.\(decimals)f", value), "\(value)")
    }

    @Test(arguments: [("/a/b/c", "/a/b"), ("/a/b/c/", "/a/b"), ("/a", "/"), ("/", "/"), ("a", ""), ("a/b", "a"),
                      ("/a//b//", "/a"), ("", "")])
    func parentIsTheDirectoryPart(path: String, parent: String) {
        #expect(DirectoryPath.parent(of: path) == parent, "\(path)")
    }

    @Test func createMakesMissingParentsAndReportsErrno() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("quire-dirs-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(DirectoryPath.create(root + "/x/y/z") == nil)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: root + "/x/y/z", isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(DirectoryPath.create(root + "/x/y/z") == nil)   // already there
        #expect(FileManager.default.createFile(atPath: root + "/file", contents: Data()))
        #expect(DirectoryPath.create(root + "/file/sub") == .notDirectory)
    }

    @Test func joinableThreadsAllFinishBeforeJoinReturns() {
        let counter = Mutex(0)
        let threads = (0..<4).map { _ in
            JoinableThread(stackSize: 256 << 10) {
                for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
            }
        }
        threads.forEach { $0.join() }
        #expect(counter.withLock { $0 } == 40_000)
    }
}
