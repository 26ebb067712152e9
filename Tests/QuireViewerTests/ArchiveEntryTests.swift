import Foundation
import Quire
import QuireRenderService
import QuireTestSupport
import QuireViewer
import Testing

/// Quick Look of a file inside an archive: the worker reads the entry (nothing unpacked there),
/// the model writes its bytes into a private folder and opens it as a file of its own.
@Suite("Opening a file from an archive (real worker)")
final class ArchiveEntryTests {
    func model(_ path: String) -> ViewerModel {
        ViewerModel(paths: [DocumentPath(path)], configuration: RealWorkerConfiguration.make())
    }

    @Test func anEntryOpensAsAFileOfItsOwnAndItsFolderGoesWithTheViewer() throws {
        let model = model(Samples.path("archives/project.tar.gz"))
        #expect(model.waitUntilOpened() == nil)
        let entries = model.archiveEntries
        #expect(entries.map(\.path) == ["project/README.md", "project/docs/guide.txt", "project/src/main.c",
                                        "project/src/util/strings.c"])
        #expect(entries[1].size == 6000)
        let guide = entries[1]
        #expect(model.openArchiveEntry(guide) == nil)
        #expect(model.fileCount == 2 && model.fileIndex == 1)
        #expect(model.fileName == "guide.txt")
        #expect(model.waitUntilOpened() == nil)
        guard case .text(let text) = model.content else {
            Issue.record("the entry is shown as text: \(model.content)")
            return
        }
        #expect(text.lineCount == 1000)
        // Its bytes, exactly, in a private folder (0700) that goes when the viewer closes.
        let written = model.path.description
        let folder = (written as NSString).deletingLastPathComponent
        #expect(try Data(contentsOf: URL(fileURLWithPath: written)) == Data(String(repeating: "guide\n", count: 1000).utf8))
        let mode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        model.close()
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    @Test func namesThatClimbOutAreNotOfferedAndABombIsRefusedByTheLimit() throws {
        let hostile = model(Samples.path("archives/hostile.zip"))
        #expect(hostile.waitUntilOpened() == nil)
        #expect(hostile.archiveEntries.map(\.path).sorted() == ["bell\u{7}name.txt", "fine.txt"])
        // A file name made safe: the control character is not in the name written.
        let bell = try #require(hostile.archiveEntries.first { $0.path.hasPrefix("bell") })
        #expect(hostile.openArchiveEntry(bell) == nil)
        #expect(hostile.fileName == "bell_name.txt")
        hostile.close()

        let bomb = model(Samples.path("archives/bomb.zip"))
        #expect(bomb.waitUntilOpened() == nil)
        let zeros = try #require(bomb.archiveEntries.first)
        let problem = bomb.openArchiveEntry(zeros)
        #expect(problem?.message.contains("zeros.bin unpacks to more than 64 MB") == true, "\(String(describing: problem))")
        #expect(bomb.fileCount == 1, "nothing was added")
        bomb.close()
    }

    @Test func aPDFIsNotAnArchive() throws {
        let directory = TemporaryDirectory()
        let pdf = directory.file("three.pdf")
        try TestPDF.write(pages: 3, to: pdf)
        let model = model(pdf)
        #expect(model.waitUntilOpened() == nil)
        #expect(model.archiveEntries.isEmpty)
        model.close()
    }
}
