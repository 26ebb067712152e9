#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Quire
import QuireRenderService
import QuireTestSupport
import Testing

/// Info fields checked against the constants the samples were generated with
/// (`Samples/Generator/main.swift`, `Spec`).
@Suite("Document info")
struct DocumentInfoTests {
    func open(_ sample: String) throws -> Document {
        try Document(path: DocumentPath(Samples.path(sample)))
    }

    @Test func pdfInfoMatchesHowTheSampleWasMade() throws {
        let info = try open("document.pdf").info()
        let pdf = try #require(info.pdf)
        #expect(pdf.pageCount == 3)
        let size = try #require(pdf.firstPageSize)
        #expect(abs(size.width - 595.28) < 0.01)
        #expect(abs(size.height - 841.89) < 0.01)
        #expect(size.paperName == "A4")
        #expect(pdf.title == "Quire Sample Document")
        #expect(pdf.author == "Quire Project")
        #expect(pdf.subject == "Sample for tests")
        #expect(pdf.creator == "Quire sample generator")
        #expect(pdf.producer?.hasPrefix("cairo") == true)
        #expect(pdf.creationDate == ISO8601DateFormatter().date(from: "2026-01-02T03:04:05Z"))
        #expect(pdf.isEncrypted == false)
        #expect(pdf.isPasswordProtected == false)
        #expect(info.problem == nil)
        #expect(info.contentType.localizedDescription == "PDF document")
        var st = stat()
        #expect(stat(Samples.path("document.pdf"), &st) == 0)
        #expect(info.size == Int64(st.st_size))
    }

    @Test func encryptedPDFWithoutPasswordIsReportedNotThrown() throws {
        let info = try open("encrypted.pdf").info()
        #expect(info.pdf?.isPasswordProtected == true)
        #expect(info.pdf?.pageCount == nil)
        #expect(info.problem?.kind == .passwordRequired)
        #expect(info.problem?.underlying?.domain == "poppler-quark")
    }

    @Test func encryptedPDFOpensWithThePassword() throws {
        let info = try open("encrypted.pdf").info(password: "secret")
        #expect(info.pdf?.pageCount == 3)
        #expect(info.pdf?.title == "Quire Sample Document")
        #expect(info.pdf?.isEncrypted == true)
        #expect(info.problem == nil)
    }

    @Test func wrongPassword() throws {
        let info = try open("encrypted.pdf").info(password: "wrong")
        #expect(info.problem?.kind == .passwordRequired)
        #expect(info.problem?.reason == "the password is not correct for this PDF")
    }

    @Test("damaged PDFs throw with the GLib error", arguments: ["truncated.pdf", "garbage.pdf"])
    func damaged(sample: String) throws {
        let document = try open(sample)
        #expect(document.contentType.mimeType == "application/pdf")
        do {
            _ = try document.info()
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .damaged)
            #expect(error.underlying?.domain == "poppler-quark")
            #expect(error.description.hasPrefix(Samples.path(sample) + ": "))
        }
    }

    @Test("image dimensions", arguments: [("quadrants.png", 64, 48), ("photo.jpg", 80, 60), ("jpeg-named-as.png", 80, 60)])
    func imageDimensions(sample: String, width: Int, height: Int) throws {
        let info = try open(sample).info()
        #expect(info.image?.width == width)
        #expect(info.image?.height == height)
    }

    @Test func opening_damaged_pdfs_repeatedly_leaks_no_descriptors() throws {
        // Other suites run in parallel in this process and open the shared samples too, so this
        // test opens private copies and counts only descriptors that point at them.
        let directory = TemporaryDirectory()
        let copies = ["garbage.pdf", "document.pdf"].map { sample in
            let copy = directory.file("leak-check-" + sample)
            try? FileManager.default.copyItem(atPath: Samples.path(sample), toPath: copy)
            return copy
        }
        let paths = Set(copies)
        func openDescriptors() -> Int {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return entries.filter { entry in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + entry)).map(paths.contains) ?? false
            }.count
        }
        #expect(openDescriptors() == 0)
        var opened = 0
        for _ in 0..<50 {
            for copy in copies {
                guard let document = try? Document(path: DocumentPath(copy)) else { continue }
                opened += 1
                _ = try? document.info()
            }
        }
        #expect(opened == 100)
        #expect(openDescriptors() == 0)
    }

    @Test func sizeFormatting() {
        #expect(DocumentInfo.formatSize(1) == "1 byte")
        #expect(DocumentInfo.formatSize(999) == "999 bytes")
        #expect(DocumentInfo.formatSize(19_187) == "19.2 kB")
        #expect(DocumentInfo.formatSize(1_500_000) == "1.5 MB")
    }

    @Test func documentFromURL() throws {
        let document = try Document(url: URL(fileURLWithPath: Samples.path("hello.c")))
        #expect(document.contentType.mimeType == "text/x-csrc")
        #expect(document.capabilities.print == .byConversion(to: "application/pdf"))
    }
}
