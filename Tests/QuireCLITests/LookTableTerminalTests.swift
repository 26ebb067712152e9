import Foundation
import QuireTestSupport
import Testing

/// A CSV file in the terminal viewer, driven in tmux: the table as characters with its header
/// frozen on top; j/k, Space/b, g/G scroll the rows; h/l scroll by column; `/` finds, n/N move
/// between matches; `s` sorts by the leftmost column in view (again: reversed); digits and
/// Enter jump to a row; `?` lists the table's keys.
@Suite("quire look on a table in a terminal (tmux)")
final class LookTableTerminalTests {
    let directory = TemporaryDirectory("quire-look-table")

    func look(_ file: String = Samples.path("tables/people.csv"), until first: String = "row 1 of 500") throws -> TmuxSession {
        var env = ProcessInfo.processInfo.environment
        env["XDG_STATE_HOME"] = directory.file("state")
        env["CUPS_SERVER"] = "127.0.0.1:1"
        env["NO_COLOR"] = nil
        let session = try TmuxSession([QuireBinary.path, "look", "--terminal", "--no-resume", file], environment: env)
        _ = session.wait(for: first, timeout: 30)
        return session
    }

    /// The first line of the screen (the header's names).
    static func header(_ screen: String) -> String { screen.components(separatedBy: "\n").first ?? "" }
    /// The screen's third line: the first row in view (under the names and the rule).
    static func firstRow(_ screen: String) -> String {
        let lines = screen.components(separatedBy: "\n")
        return lines.count > 2 ? lines[2] : ""
    }

    @Test func rowsScrollUnderAFrozenHeader() throws {
        let session = try look()
        var screen = session.capture()
        #expect(Self.header(screen).contains("id │ name        │ born       │ height │ city"), "\(screen)")
        #expect(screen.components(separatedBy: "\n")[1].contains("────┼─────"), "the rule under the names")
        #expect(Self.firstRow(screen).contains("1 │ Person 0001 │ 1951-02-02 │  157.1 │ Lyon"), "numbers right-aligned: \(screen)")
        session.send("j")
        screen = session.wait(for: "row 2 of 500")
        #expect(Self.header(screen).contains("id │ name"), "the header stays")
        #expect(Self.firstRow(screen).contains("Person 0002"))
        session.send("k")
        _ = session.wait(for: "row 1 of 500")
        session.send("Space")
        screen = session.wait { TmuxSession.frameIsWhole($0) && !$0.contains("row 1 of 500") && $0.contains(" of 500") }
        #expect(Self.header(screen).contains("id │ name"))
        #expect(!screen.contains("Person 0001 "), "a screen further")
        session.send("b")
        screen = session.wait(for: "row 1 of 500")
        #expect(Self.firstRow(screen).contains("Person 0001"))
        session.send("G")
        screen = session.wait(for: "row 500 of 500")
        #expect(screen.contains("500 │ Person 0500") && Self.header(screen).contains("id │ name"), "\(screen)")
        session.send("g")
        screen = session.wait(for: "row 1 of 500")
        #expect(Self.firstRow(screen).contains("Person 0001"))
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    @Test func hAndLScrollByColumn() throws {
        let session = try look()
        session.send("l")
        var screen = session.wait { Self.header($0).contains("name        │ born") && !Self.header($0).contains("id │") }
        #expect(Self.firstRow(screen).contains("Person 0001 │ 1951-02-02"), "\(screen)")
        session.send("l", "l", "l")
        screen = session.wait { Self.header($0).contains("city") && !Self.header($0).contains("height") }
        session.send("l")
        screen = session.wait(for: "this is the last column")
        session.send("h")
        screen = session.wait { Self.header($0).contains("height │ city") }
        #expect(Self.firstRow(screen).contains("157.1 │ Lyon"))
        session.send("S-Left", "S-Left", "S-Left")
        screen = session.wait { Self.header($0).contains("id │ name") }
        session.send("q")
    }

    @Test func slashFindsAndNMovesBetweenMatches() throws {
        let session = try look()
        session.send("/")
        _ = session.wait(for: "Find: ")
        session.type("Person 0250")
        session.send("Enter")
        var screen = session.wait { TmuxSession.lastLine($0).contains("/Person 0250: 1 of 1") }
        #expect(screen.contains("250 │ Person 0250 │"), "the match's row is in view: \(screen)")
        #expect(Self.header(screen).contains("id │ name"), "under the header")
        session.send("Escape")
        _ = session.wait { TmuxSession.frameIsWhole($0) && !TmuxSession.lastLine($0).contains("Person 0250") }
        session.send("g", "/")
        _ = session.wait(for: "Find: ")
        session.type("Kraków")
        session.send("Enter")
        screen = session.wait { TmuxSession.lastLine($0).contains("/Kraków: 1 of 84") }
        #expect(screen.contains("Person 0002 │ 1952-03-03 │  164.2 │ Kraków"), "every sixth row from row 2: \(screen)")
        session.send("G", "n")
        screen = session.wait { TmuxSession.lastLine($0).contains("/Kraków: 2 of 84") }
        #expect(screen.contains("Person 0008 │"), "n goes to the next match and shows it: \(screen)")
        session.send("N")
        screen = session.wait { TmuxSession.lastLine($0).contains("/Kraków: 1 of 84") }
        #expect(screen.contains("Person 0002 │"))
        session.send("Escape", "q")
    }

    @Test func sSortsByTheLeftmostColumnInView() throws {
        let session = try look()
        session.send("s")
        var screen = session.wait(for: "sorted by id ↑", timeout: 30)
        #expect(Self.firstRow(screen).contains("1 │ Person 0001"), "\(screen)")
        session.send("s")
        screen = session.wait(for: "sorted by id ↓", timeout: 30)
        #expect(Self.firstRow(screen).contains("500 │ Person 0500"), "numbers as numbers: \(screen)")
        session.send("l", "l", "l")
        _ = session.wait { Self.header($0).contains("height │ city") && !Self.header($0).contains("born") }
        session.send("s")
        screen = session.wait(for: "sorted by height ↑", timeout: 30)
        #expect(Self.firstRow(screen).contains("150.0 │"), "the smallest height first: \(screen)")
        session.send("q")
    }

    /// 100,000 rows (4.4 MB): the worker sends a window of rows at a time (2 MiB); G, a row
    /// number and scrolling past the window's end ask for the window that holds the row.
    @Test func aLargeTableIsShownAWindowAtATime() throws {
        let session = try look(Samples.path("tables/many-rows.csv"), until: "row 1 of ")
        var screen = session.capture()
        #expect(Self.firstRow(screen).contains("Person 0001"), "\(screen)")
        session.send("G")
        screen = session.wait(for: "row 100,000 of 100,000 rows", timeout: 30)
        #expect(screen.contains("100000 │ Person 100000 │"), "\(screen)")
        #expect(Self.header(screen).contains("id │ name"))
        session.type("50000")
        session.send("Enter")
        screen = session.wait(for: "row 50,000 of 100,000 rows", timeout: 30)
        #expect(Self.firstRow(screen).contains("50000 │ Person 50000 │"), "\(screen)")
        session.send("k")
        screen = session.wait(for: "row 49,999 of")
        #expect(Self.firstRow(screen).contains("Person 49999 │"))
        session.send("g")
        screen = session.wait(for: "row 1 of 100,000 rows", timeout: 30)
        #expect(Self.firstRow(screen).contains("Person 0001"))
        session.type("47000")
        session.send("Enter")
        _ = session.wait(for: "row 47,000 of", timeout: 30)
        // Down a screen at a time across the end of the first window (about 47,800 rows).
        for _ in 0..<40 { session.send("Space") }
        screen = session.wait(timeout: 30) { screen in
            guard TmuxSession.lastLine(screen).contains(" of 100,000 rows"), let row = Int(TmuxSession.lastLine(screen).components(separatedBy: "row ").dropFirst().first?
                .prefix { $0 != " " }.filter(\.isNumber) ?? "") else { return false }
            return row > 48_000
        }
        #expect(Self.firstRow(screen).contains("Person 4"), "rows past the first window: \(screen)")
        session.send("q")
    }

    /// 100,000 rows of about 80 bytes (8 MB, four windows): `score` is a different number on
    /// every row, its smallest (0) on the file's last row and its largest somewhere else; one
    /// word is on one row only, far past the first window.
    func largeScores() throws -> (path: String, largest: Int) {
        var text = "score,name,note\n"
        var largest = 0
        for n in 1...100_000 {
            let score = n * 7919 % 100_000
            if score == 99_999 { largest = n }
            let note = n == 90_000 ? "a zebrafish swims here" : n == 10 ? "a goldfish swims here" : "padding padding padding padding padding pad"
            text += "\(score),Person \(n),\(note)\n"
        }
        let path = directory.file("scores.csv")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, largest)
    }

    /// `s` sorts the whole file in the worker, not the window in view: the smallest score (on
    /// the file's last row) comes first, G shows the largest; `s` again reverses the order.
    @Test func sSortsTheWholeFileAndGShowsItsLargest() throws {
        let (path, largest) = try largeScores()
        let session = try look(path, until: "row 1 of ")
        session.send("s")
        var screen = session.wait(for: "sorted by score ↑", timeout: 60)
        #expect(Self.firstRow(screen).contains("0 │ Person 100000 "), "the smallest score is the file's last row: \(screen)")
        session.send("G")
        screen = session.wait(timeout: 60) { TmuxSession.lastLine($0).contains("row 100,000 of 100,000 rows") }
        #expect(screen.contains("99999 │ Person \(largest) "), "the largest score of the whole file is last: \(screen)")
        session.send("g")
        _ = session.wait(timeout: 60) { TmuxSession.lastLine($0).contains("row 1 of 100,000 rows") }
        session.send("s")
        screen = session.wait(for: "sorted by score ↓", timeout: 60)
        #expect(Self.firstRow(screen).contains("99999 │ Person \(largest) "), "reversed: \(screen)")
        session.send("G")
        screen = session.wait(timeout: 60) { TmuxSession.lastLine($0).contains("row 100,000 of 100,000 rows") }
        #expect(screen.contains("    0 │ Person 100000 "), "\(screen)")
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    /// A word on one row past the first window: the window in view does not hold it, so the
    /// find goes on in the worker through the rows after it and shows the row's window; a word
    /// on a row of the first window and that one: `n` on the window's last match goes on, `N`
    /// on a window's first match goes back up past it (and round from the last row).
    @Test func findGoesOnPastTheWindow() throws {
        let (path, _) = try largeScores()
        let session = try look(path, until: "row 1 of ")
        session.send("/")
        _ = session.wait(for: "Find: ")
        session.type("zebrafish")
        session.send("Enter")
        let screen = session.wait(timeout: 60) { TmuxSession.lastLine($0).contains("/zebrafish: 1 of 1") }
        let row = screen.components(separatedBy: "\n").first { $0.contains("a zebrafish swims here") } ?? ""
        #expect(row.contains(" 10000 │ Person 90000 "), "the row past the first window is in view: \(screen)")
        session.send("Escape")
        _ = session.wait { TmuxSession.frameIsWhole($0) && !TmuxSession.lastLine($0).contains("zebrafish") }
        // A word in the first window and past it: n on the window's last match goes on.
        session.send("g")
        _ = session.wait(timeout: 60) { TmuxSession.lastLine($0).contains("row 1 of ") }
        session.send("/")
        _ = session.wait(for: "Find: ")
        session.type("swims")
        session.send("Enter")
        // n and N go past the window only from its last or first match, which a search still
        // going may change: each is pressed once the window's own search is done ("1 of 1", not
        // "1 of 1 (searching…)"; under load the first key came while it still searched).
        let settled = { (screen: String, word: String) in
            screen.contains("a \(word) swims here") && TmuxSession.lastLine(screen).contains("/swims: 1 of 1")
                && !TmuxSession.lastLine(screen).contains("searching")
        }
        var found = session.wait(timeout: 60) { settled($0, "goldfish") }
        #expect(found.contains("Person 10 ") && found.contains("a goldfish swims here"), "\(found)")
        session.send("n")
        found = session.wait(timeout: 60) { settled($0, "zebrafish") }
        #expect(found.contains("Person 90000 "), "n went on past the window: \(found)")
        // N on that window's only match goes back up past it, to the row before it that holds the word…
        session.send("N")
        found = session.wait(timeout: 60) { settled($0, "goldfish") }
        #expect(found.contains("Person 10 ") && !found.contains("a zebrafish swims here"), "N went back past the window: \(found)")
        // …and from the first window's only match, round from the last row up.
        session.send("N")
        found = session.wait(timeout: 60) { settled($0, "zebrafish") }
        #expect(found.contains("Person 90000 "), "N went round from the end: \(found)")
        session.send("Escape")
        _ = session.wait { TmuxSession.frameIsWhole($0) && !TmuxSession.lastLine($0).contains("swims") }
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    @Test func digitsAndEnterJumpToARow() throws {
        let session = try look()
        session.type("250")
        session.send("Enter")
        var screen = session.wait(for: "row 250 of 500")
        #expect(Self.firstRow(screen).contains("250 │ Person 0250"), "\(screen)")
        session.type("999")
        session.send("Enter")
        screen = session.wait(for: "there is no row 999")
        session.send("?")
        screen = session.wait(for: "Keys for")
        #expect(screen.contains("sort a table by its leftmost column in view"), "\(screen)")
        #expect(screen.contains("a table: one column right"))
        session.send("q", "q")
    }
}
