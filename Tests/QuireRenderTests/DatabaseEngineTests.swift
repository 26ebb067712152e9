import Foundation
import Testing
@testable import QuireRender
import QuireTypes

/// The SQLite engine on databases Samples/data-samples.py makes with Python's sqlite3: tables,
/// a view, ANALYZE's statistics, a corrupt one, a header with garbage, a hot journal and a WAL
/// beside their files, a name with URI-special characters.
@Suite struct DatabaseEngineTests {
    @Test func aDatabaseIsSummarisedWithTablesColumnsRowsAndPages() throws {
        let file = try SampleFiles.open("data/shop.sqlite")
        let type = try ContentType.detect(file)
        #expect(type.mimeType == "application/vnd.sqlite3")
        #expect(type.family == .database)
        #expect(type.capabilities.preview.isSupported && type.capabilities.thumbnail.isSupported)
        let summary = try DatabaseSummary.read(file)
        #expect(summary.tables.map(\.name) == ["customers", "orders", "big_orders"], "tables first, then views; sqlite_stat1 left out")
        #expect(summary.tables.map(\.isView) == [false, false, true])
        #expect(summary.tables[0].columns.map(\.name) == ["id", "name", "city", "balance", "photo"])
        #expect(summary.tables[0].columns.map(\.type) == ["INTEGER", "TEXT", "TEXT", "REAL", "BLOB"])
        #expect(summary.tables[0].rows == 250 && !summary.tables[0].rowsAreEstimated)
        #expect(summary.tables[1].rows == 1000 && !summary.tables[1].rowsAreEstimated)
        #expect(summary.tables[2].rows == 222, "the view counted: quantity > 7 is 2 of every 9 orders")
        #expect(summary.pageSize == 4096 && summary.pageCount == 16 && summary.encoding == "UTF-8")
        #expect(summary.journal == nil)
    }

    /// Without time to count, a table's rows come from sqlite_stat1 (ANALYZE), else its largest rowid.
    @Test func rowCountsAreEstimatedWhenCountingIsNotCheap() throws {
        let database = try SQLiteDatabase(file: try SampleFiles.open("data/shop.sqlite"))
        #expect(DatabaseSummary.estimate("orders", in: database, statistics: true) == 1000)
        #expect(DatabaseSummary.estimate("customers", in: database, statistics: false) == 250)
        var table = DatabaseSummary.Table(name: "orders", isView: false, columns: [], rows: 1000, rowsAreEstimated: true)
        #expect(DatabaseSummary.rowsText(table) == "about 1,000 rows")
        table.rowsAreEstimated = false
        #expect(DatabaseSummary.rowsText(table) == "1,000 rows")
    }

    @Test func theURIEscapesEveryCharacterThatWouldEndThePath() {
        #expect(SQLiteDatabase.readOnlyURI(path: Array("/data/a b?c#d%e.sqlite".utf8))
                == "file:///data/a%20b%3Fc%23d%25e.sqlite?mode=ro&immutable=1")
        #expect(SQLiteDatabase.readOnlyURI(path: Array("rel/ü.db".utf8)) == "file:rel/%C3%BC.db?mode=ro&immutable=1")
        #expect(SQLiteDatabase.quoted("a\"b") == "\"a\"\"b\"")
        #expect(SQLiteDatabase.literal("it's") == "'it''s'")
    }

    @Test func aFileWithURISpecialCharactersInItsNameOpens() throws {
        let summary = try DatabaseSummary.read(try SampleFiles.open("data/odd name ?#%.sqlite"))
        #expect(summary.tables.count == 3 && summary.tables[1].rows == 1000)
    }

    @Test func aDamagedTableIsSaidAndTheRestIsRead() throws {
        let summary = try DatabaseSummary.read(try SampleFiles.open("data/corrupt.sqlite"))
        let damaged = summary.tables.filter { $0.problem != nil }
        #expect(!damaged.isEmpty)
        #expect(damaged.allSatisfy { $0.problem?.contains("malformed") == true }, "\(damaged)")
        #expect(summary.tables.count == 3, "the schema is still read")
        let renderer = try SampleFiles.renderer("data/corrupt.sqlite")
        let text = try #require(try renderer.text(page: 2))
        #expect(text.contains("malformed"), "the orders page says why it has no rows: \(text)")
    }

    @Test func aFileThatIsNotADatabaseIsOneReason() throws {
        #expect {
            _ = try DatabaseSummary.read(try SampleFiles.open("data/not-a-database.sqlite"))
        } throws: { error in
            guard let error = error as? DocumentError else { return false }
            return error.kind == .damaged && error.reason.hasPrefix("not a readable SQLite database (")
                && !error.reason.contains("\n")
        }
    }

    @Test func aJournalOrWALBesideTheFileIsSaid() throws {
        #expect(try DatabaseSummary.read(try SampleFiles.open("data/journal.sqlite")).journal == "-journal")
        let wal = try DatabaseSummary.read(try SampleFiles.open("data/wal.sqlite"))
        #expect(wal.journal == "-wal")
        // The row only in the WAL is not read: the file as it is on disk.
        #expect(wal.tables.first?.rows == 20)
    }

    /// Page 1: the table list and the first rows of the first table, drawn (ink where the lines
    /// are); each table its own page after it.
    @Test func pagesShowTheTableListAndFirstRows() throws {
        let renderer = try SampleFiles.renderer("data/shop.sqlite")
        #expect(renderer.pageCount == 4)
        let first = try #require(try renderer.text(page: 0))
        #expect(first.contains("shop.sqlite: SQLite database, 2 tables, 1 view"))
        #expect(first.contains("│ customers  │ table │   250 │ id, name, city, balance, photo │"), "\(first)")
        #expect(first.contains("First rows of customers: table, 5 columns, 250 rows"))
        #expect(first.contains("│  2 │ Two⏎lines and a tab │ Kraków │     2.5 │ NULL           │"), "line breaks shown as ⏎: \(first)")
        #expect(first.contains("‹blob 3 bytes›"))
        #expect(first.split(separator: "\n").count <= TextSource.linesPerPage)
        let orders = try #require(try renderer.text(page: 2))
        #expect(orders.hasPrefix("orders: table, 4 columns, 1,000 rows"))
        let image = try renderer.render(page: 0, size: .fit(width: 595, height: 842))
        func inked(_ rows: Range<Int>) -> Int {
            var count = 0
            for y in rows { for x in 40..<500 where image.pixel(x: x, y: y).red < 128 { count += 1 } }
            return count
        }
        #expect(image.pixel(x: 5, y: 5).isClose(to: 255, 255, 255), "paper")
        #expect(inked(48..<60) > 100, "the first line is drawn")
        #expect(inked(700..<790) > 100, "the first table's rows reach down the page")
        let thumbnail = try renderer.render(page: 0, size: .longestSide(256))
        #expect(max(thumbnail.width, thumbnail.height) == 256)
    }

    /// Values and names holding escape sequences come out as visible symbols.
    @Test func controlCharactersInNamesAndValuesAreShownNotPassedOn() throws {
        let renderer = try SampleFiles.renderer("data/escapes.sqlite")
        let text = try #require(try renderer.text(page: 0)) + (try renderer.text(page: 1) ?? "")
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(text)")
        #expect(text.contains("evil␛]0;owned␇"))
    }

    /// Info, every page, the thumbnail and each table's text leave the database, its journal
    /// or WAL, and the folder exactly as they were: no byte changed, no file added or removed.
    @Test(arguments: ["shop.sqlite", "journal.sqlite", "wal.sqlite", "corrupt.sqlite"])
    func readingChangesNothing(name: String) throws {
        let folder = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = URL(fileURLWithPath: SampleFiles.path("data"))
        for item in try FileManager.default.contentsOfDirectory(atPath: source.path) where item.hasPrefix(name) {
            try FileManager.default.copyItem(at: source.appendingPathComponent(item), to: folder.appendingPathComponent(item))
        }
        func snapshot() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for item in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                files[item] = try Data(contentsOf: folder.appendingPathComponent(item))
            }
            return files
        }
        let before = try snapshot()
        #expect(before.count == (name == "wal.sqlite" ? 3 : name == "journal.sqlite" ? 2 : 1))
        let path = folder.appendingPathComponent(name).path
        let file = try InputFile(path: DocumentPath(path))
        let summary = try DatabaseSummary.read(file)
        let renderer = try Renderer(file: file, contentType: try ContentType.detect(file))
        for page in 0..<renderer.pageCount { _ = try renderer.render(page: page, size: .longestSide(300)) }
        for table in summary.tables { _ = try? DatabaseText.tableText(named: table.name, in: file) }
        let after = try snapshot()
        #expect(after.keys.sorted() == before.keys.sorted(), "the folder's listing")
        for (item, bytes) in before { #expect(after[item] == bytes, "\(item) is unchanged") }
    }

    @Test func aTableOpenedFromTheListIsItsFirstRowsAsText() throws {
        let file = try SampleFiles.open("data/shop.sqlite")
        let text = String(decoding: try DatabaseText.tableText(named: "orders", in: file), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "orders: table, 4 columns, 1,000 rows")
        #expect(lines[1] == "columns: id INTEGER, customer INTEGER, item TEXT, quantity INTEGER")
        #expect(lines.contains("│ 500 │        1 │ item-19 │        6 │"), "\(lines.prefix(12))")
        #expect(!lines.contains { $0.hasPrefix("│ 501 ") }, "at most \(DatabaseText.maximumRows) rows")
        #expect(text.contains("(the first 500 of 1,000 rows)"))
        #expect(throws: DocumentError.self) { _ = try DatabaseText.tableText(named: "nope", in: file) }
    }
}
