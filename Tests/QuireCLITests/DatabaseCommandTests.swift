#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuireTestSupport
import Testing

/// SQLite databases through the built binary: `info` (text and `--json`), `preview`,
/// `thumbnail`, and the terminal viewer in tmux (the table list, Enter opens a table, Esc backs
/// out) — and none of them changes a byte of the database or its folder.
@Suite("SQLite databases through quire")
final class DatabaseCommandTests {
    let directory = TemporaryDirectory("quire-database")

    /// `name` and what lies beside it (a -journal, a -wal and -shm) copied into a folder of its own.
    func copy(_ name: String) throws -> (folder: String, path: String) {
        let folder = directory.file(name + ".d")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let source = Samples.path("data")
        for item in try FileManager.default.contentsOfDirectory(atPath: source) where item.hasPrefix(name) {
            try FileManager.default.copyItem(atPath: source + "/" + item, toPath: folder + "/" + item)
        }
        return (folder, folder + "/" + name)
    }

    func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for item in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[item] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + item))
        }
        return files
    }

    @Test func infoListsTablesColumnsRowsPageSizeAndEncoding() throws {
        let result = QuireBinary.run(["info", Samples.path("data/shop.sqlite")])
        #expect(result.status == 0, "\(result.standardError)")
        let card = result.standardOutputText
        #expect(card.contains("Tables:     2 tables, 1 view"), "\(card)")
        #expect(card.contains("Table:    customers: 250 rows; id INTEGER, name TEXT, city TEXT, balance REAL, photo BLOB"), "\(card)")
        #expect(card.contains("View:     big_orders: 222 rows; id INTEGER, item TEXT, quantity INTEGER"), "\(card)")
        #expect(card.contains("Page size:  4096 bytes, 16 pages"))
        #expect(card.contains("Encoding:   UTF-8"))
        #expect(card.contains("Thumbnail:  yes"))
    }

    @Test func infoJSONCarriesTheDatabase() throws {
        let result = QuireBinary.run(["info", "--json", Samples.path("data/shop.sqlite")])
        #expect(result.status == 0, "\(result.standardError)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput)) as? [[String: Any]])
        let database = try #require(records.first?["database"] as? [String: Any])
        #expect(database["pageSize"] as? Int == 4096)
        #expect(database["encoding"] as? String == "UTF-8")
        #expect(database["tableCount"] as? Int == 2 && database["viewCount"] as? Int == 1)
        let tables = try #require(database["tables"] as? [[String: Any]])
        #expect(tables.map { $0["name"] as? String } == ["customers", "orders", "big_orders"])
        #expect(tables[1]["rows"] as? Int == 1000 && tables[1]["rowsEstimated"] as? Bool == false)
        let columns = try #require(tables[1]["columns"] as? [[String: Any]])
        #expect(columns.map { $0["name"] as? String } == ["id", "customer", "item", "quantity"])
        #expect(records.first?["family"] as? String == "database")
    }

    @Test func aJournalBesideTheDatabaseIsSaidOnTheCard() throws {
        let result = QuireBinary.run(["info", Samples.path("data/journal.sqlite")])
        #expect(result.status == 0)
        #expect(result.standardOutputText.contains("Note:       a -journal file lies beside it (another program may be writing it): shown as it is on disk"),
                "\(result.standardOutputText)")
    }

    @Test(arguments: ["not-a-database.sqlite"])
    func aDatabaseThatCannotBeReadIsOneLine(name: String) throws {
        for command in [["info"], ["thumbnail"], ["preview", "-o", directory.file("p.png")]] {
            var arguments = command + [Samples.path("data/" + name)]
            if command == ["thumbnail"] { arguments.append(directory.file("t.png")) }
            let result = QuireBinary.run(arguments)
            #expect(result.status == 65, "\(command): \(result.standardError)")
            #expect(result.errorLines.count == 1 && result.standardError.contains("not a readable SQLite database ("),
                    "\(command): \(result.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("t.png")))
        #expect(!FileManager.default.fileExists(atPath: directory.file("p.png")))
    }

    /// The thumbnail is the first page: the table list and the first rows, dark lines on paper.
    @Test func theThumbnailIsThePageWithTheTableList() throws {
        let output = directory.file("shop.png")
        let result = QuireBinary.run(["thumbnail", "-s", "256", Samples.path("data/shop.sqlite"), output])
        #expect(result.status == 0, "\(result.standardError)")
        let png = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // IHDR: 256 high (an A4 page, portrait).
        #expect(png[20..<24].reduce(0) { $0 << 8 | Int($1) } == 256)
    }

    /// info, preview (every page), thumbnail and the terminal viewer (list, a table opened)
    /// leave the database, the journal or WAL beside it, and the folder's listing as they were.
    @Test(arguments: ["shop.sqlite", "journal.sqlite", "wal.sqlite", "corrupt.sqlite"])
    func noCommandChangesTheDatabaseOrItsFolder(name: String) throws {
        let (folder, path) = try copy(name)
        let before = try snapshot(folder)
        let outputs = directory.file("out-" + name)
        try FileManager.default.createDirectory(atPath: outputs, withIntermediateDirectories: true)
        #expect(QuireBinary.run(["info", path]).status == 0)
        #expect(QuireBinary.run(["info", "--json", path]).status == 0)
        let preview = QuireBinary.run(["preview", "--pages", "1-2", path, "-o", outputs + "/page.png"])
        #expect(preview.status == 0, "\(preview.standardError)")
        #expect(QuireBinary.run(["thumbnail", path, outputs + "/thumb.png"]).status == 0)
        let session = try TmuxSession([QuireBinary.path, "look", path], environment: LookEnvironment.plain(directory))
        session.wait(for: "sorted by name")
        session.send("Enter")
        session.wait { $0.contains("file 2 of 2") }
        session.send("q")
        session.wait(for: "EXIT=")
        let after = try snapshot(folder)
        #expect(after.keys.sorted() == before.keys.sorted(), "the folder's listing")
        for (item, bytes) in before { #expect(after[item] == bytes, "\(item) is unchanged") }
    }

    /// The terminal viewer opens a database on its table list; Enter shows a table's first rows
    /// as a character table, Esc goes back to the list, Esc again to the overview, q closes.
    @Test func theTerminalViewerListsTablesAndOpensOne() throws {
        let session = try TmuxSession([QuireBinary.path, "look", Samples.path("data/shop.sqlite")],
                                      environment: LookEnvironment.plain(directory))
        var screen = session.wait(for: "sorted by name")
        #expect(screen.contains("1 of 3 tables"), "\(screen)")
        #expect(screen.contains("customers  ·  table · 250 rows"), "\(screen)")
        #expect(screen.contains("big_orders  ·  view · 222 rows"), "\(screen)")
        session.send("Down")
        session.send("Down")
        session.send("Enter")
        screen = session.wait { $0.contains("orders.txt") && $0.contains("│ id  │ customer │ item    │ quantity │") }
        #expect(screen.contains("orders: table, 4 columns, 1,000 rows"), "\(screen)")
        #expect(screen.contains("│   1 │        2 │ item-1  │        2 │"), "\(screen)")
        #expect(!screen.contains("▀"), "text, not a picture")
        session.send("Escape")
        screen = session.wait(for: "sorted by name")
        #expect(screen.contains("3 of 3 tables"), "back on the list, orders still chosen: \(screen)")
        session.send("Escape")
        screen = session.wait { TmuxSession.frameIsWhole($0) && !$0.contains("sorted by name") && $0.contains("First rows of customers") }
        #expect(screen.contains("│ customers  │ table │   250 │ id, name, city, balance, photo │"), "the overview: \(screen)")
        session.send("o")
        session.wait(for: "sorted by name")
        session.send("Escape")
        session.wait { TmuxSession.frameIsWhole($0) && !$0.contains("sorted by name") }
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }
}

/// The environment of a terminal viewer under test: a private state folder, no printers, no
/// display, colours as the terminal allows.
enum LookEnvironment {
    static func plain(_ directory: TemporaryDirectory) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_STATE_HOME"] = directory.file("state")
        env["CUPS_SERVER"] = "127.0.0.1:1"
        env["NO_COLOR"] = nil
        env["QUIRE_GRAPHICS"] = nil
        env["DISPLAY"] = nil
        env["WAYLAND_DISPLAY"] = nil
        return env
    }
}
