import Testing
@testable import QuireRender
import QuireTypes

/// A PDF that needs a password is reported by every reader in the library with the same words
/// and a ``Remedy``: the message says what is wrong, never which command-line flag gives the
/// password (that is the CLI's ``RemedyHint``; a window asks in a field).
@Suite struct PasswordMessageTests {
    /// The errors of each way the library opens `encrypted.pdf` without its password.
    static func errorsWithoutPassword() throws -> [(String, DocumentError)] {
        var errors: [(String, DocumentError)] = []
        func record(_ reader: String, _ open: () throws -> Void) {
            do {
                try open()
                Issue.record("\(reader) opened encrypted.pdf without its password")
            } catch let error as DocumentError {
                errors.append((reader, error))
            } catch {
                Issue.record("\(reader): \(error)")
            }
        }
        record("PDFDocument (poppler-glib)") { _ = try PDFDocument(file: try SampleFiles.open("encrypted.pdf")) }
        record("Renderer") { _ = try SampleFiles.renderer("encrypted.pdf") }
        record("Thumbnail") {
            let file = try SampleFiles.open("encrypted.pdf")
            _ = try Thumbnail.firstPage(file, contentType: try ContentType.detect(file), sizes: [64], limits: .standard,
                                        interpreters: .here)
        }
        #expect(SplashPDFDocument.isAvailable, "\(SplashPDFDocument.unavailableReason ?? "")")
        record("SplashPDFDocument (libpoppler-cpp)") { _ = try SplashPDFDocument(file: try SampleFiles.open("encrypted.pdf")) }
        return errors
    }

    @Test func aMissingPasswordIsARemedyNotAFlag() throws {
        let errors = try Self.errorsWithoutPassword()
        #expect(errors.count == 4)
        for (reader, error) in errors {
            #expect(error.kind == .passwordRequired, "\(reader): \(error.kind)")
            #expect(error.remedy == .password, "\(reader): no remedy")
            #expect(error.reason == "PDF is password-protected", "\(reader): \(error.reason)")
            #expect(!error.description.contains("--"), "\(reader) names a flag: \(error.description)")
        }
    }

    @Test func aWrongPasswordHasNoRemedy() throws {
        let file = try SampleFiles.open("encrypted.pdf")
        for (reader, open) in [("PDFDocument", { _ = try PDFDocument(file: file, password: "wrong") }),
                               ("SplashPDFDocument", { _ = try SplashPDFDocument(file: file, password: "wrong") })]
            as [(String, () throws -> Void)] {
            do {
                try open()
                Issue.record("\(reader) accepted a wrong password")
            } catch let error as DocumentError {
                #expect(error.kind == .passwordRequired && error.remedy == nil, "\(reader): \(error.kind) \(String(describing: error.remedy))")
                #expect(error.reason == "the password is not correct for this PDF", "\(reader): \(error.reason)")
            }
        }
    }
}
