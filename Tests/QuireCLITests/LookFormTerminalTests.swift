import Foundation
import QuireTestSupport
import Testing

/// A PDF's form on the terminal viewer's card (tmux): the card (`i`) counts the fields and
/// lists them with their values, as `quire form` reads them; an XFA-only form says it is not
/// supported; a PDF without a form shows no form row.
@Suite("quire look terminal: a PDF's form on the card")
struct LookFormTerminalTests {
    func card(_ sample: String, waitingFor text: String, in directory: TemporaryDirectory) throws -> String {
        let session = try TmuxSession([QuireBinary.path, "look", Samples.path(sample)],
                                      environment: LookEnvironment.plain(directory), width: 110, height: 40)
        session.wait(for: "page 1 of")
        session.send("i")
        let screen = session.wait(for: text)
        session.send("q")
        session.wait(for: "EXIT=")
        return screen
    }

    @Test func theCardListsTheFormsFieldsWithTheirValues() throws {
        let directory = TemporaryDirectory("quire-look-form-terminal")
        // What quire form reads is what the card shows.
        let listed = QuireBinary.run(["form", "--json", Samples.path("forms/form.pdf")])
        #expect(listed.status == 0, "\(listed.standardError)")
        let json = try #require(JSONSerialization.jsonObject(with: Data(listed.standardOutput)) as? [String: Any])
        let fields = try #require(json["fields"] as? [[String: Any]])
        let screen = try card("forms/form.pdf", waitingFor: "Form ", in: directory)
        #expect(screen.contains("Form   \(fields.count) field"), "\(screen)")
        for field in fields.prefix(5) {
            let name = try #require(field["name"] as? String), type = try #require(field["type"] as? String)
            #expect(screen.contains("\(name) (\(type)"), "\(name) on the card: \(screen)")
        }
        let xfa = try card("forms/xfa-only.pdf", waitingFor: "Form ", in: directory)
        #expect(xfa.contains("XFA only: not supported"), "\(xfa)")
        let plain = try card("document.pdf", waitingFor: "Type ", in: directory)
        #expect(!plain.contains("Form "), "no form, no row: \(plain)")
    }
}
