@testable import QuireArguments
import Testing

/// The form machinery itself: options anywhere, values by kind, `--`, operands as bytes, and the
/// first word that does not fit reported.
@Suite struct ArgumentFormTests {
    static func argv(_ words: String...) -> [[UInt8]] { words.map { Array($0.utf8) } }
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    static let sample = ArgumentForm(
        command: "cmd",
        options: [.flag("-q", "--quiet"), .option("-s", "--size", value: .integer(1...4096), attachedValue: true),
                  .option("-t", "--title"), .option("--tag", value: .anyWord, repeatable: true)],
        operands: ArgumentOperands(name: "file", count: 1...2))

    @Test func readsOptionsAnywhereAndOperandsAsGiven() throws {
        let parsed = try Self.sample.parse(Self.argv("prog", "cmd", "a", "-q", "--size", "12", "b", "-t", "T 1"))
        #expect(parsed.operands == [Self.bytes("a"), Self.bytes("b")])
        #expect(parsed.isSet("-q") && parsed.isSet("--quiet") && parsed.count("-q") == 1)
        #expect(parsed.integer("-s") == 12 && parsed.text("--title") == "T 1")
        #expect(!parsed.isSet("--tag") && parsed.value("--tag") == nil && parsed.values("--tag").isEmpty)
    }

    @Test func attachedValuesOnlyWhereTheOptionTakesThem() throws {
        #expect(try Self.sample.parse(Self.argv("p", "cmd", "-s128", "a")).integer("--size") == 128)
        #expect(try Self.sample.parse(Self.argv("p", "cmd", "--size=64", "a")).integer("-s") == 64)
        #expect(throws: ArgumentMismatch.invalidValue(option: "-s", value: Self.bytes("=5"), needs: "a value")) {
            try Self.sample.parse(Self.argv("p", "cmd", "-s=5", "a"))
        }
        #expect(throws: ArgumentMismatch.invalidValue(option: "-s", value: [], needs: "a value")) {
            try Self.sample.parse(Self.argv("p", "cmd", "--size=", "a"))
        }
        #expect(throws: ArgumentMismatch.unknownOption(Self.bytes("-tX"))) { try Self.sample.parse(Self.argv("p", "cmd", "-tX", "a")) }
        #expect(throws: ArgumentMismatch.unknownOption(Self.bytes("--title=X"))) {
            try Self.sample.parse(Self.argv("p", "cmd", "--title=X", "a"))
        }
        #expect(throws: ArgumentMismatch.unknownOption(Self.bytes("-qq"))) { try Self.sample.parse(Self.argv("p", "cmd", "-qq", "a")) }
    }

    @Test func valuesOfEachKind() {
        let text = ArgumentValue.text
        #expect(text.accepts(Self.bytes("x y")) && text.accepts(Self.bytes("é")))
        #expect(!text.accepts([]) && !text.accepts(Self.bytes("-x")) && !text.accepts([0x66, 0xFF]))
        let integer = ArgumentValue.integer(1...4096)
        #expect(integer.accepts(Self.bytes("1")) && integer.accepts(Self.bytes("4096")) && integer.accepts(Self.bytes("0128")))
        for word in ["0", "4097", "+12", "-1", "1.0", " 1", "", "99999999999999999999", "12a"] {
            #expect(!integer.accepts(Self.bytes(word)), "\(word)")
        }
        #expect(ArgumentValue.integer(Self.bytes("9223372036854775807")) == Int.max)
        #expect(ArgumentValue.integer(Self.bytes("9223372036854775808")) == nil)
        let number = ArgumentValue.number(minimum: 1)
        #expect(number.accepts(Self.bytes("1")) && number.accepts(Self.bytes("2.5")) && number.accepts(Self.bytes("1e3")))
        for word in ["0.5", "-5", "x", "", "nan"] { #expect(!number.accepts(Self.bytes(word)), "\(word)") }
        let any = ArgumentValue.anyWord
        #expect(any.accepts([]) && any.accepts(Self.bytes("-x")) && any.accepts(Self.bytes("--")) && any.accepts([0xFF]))
        #expect(ArgumentValue.none.accepts([]) && !ArgumentValue.none.accepts(Self.bytes("x")))
    }

    @Test func aValueIsTheNextWordOnlyWhenItIsOfTheKind() throws {
        #expect(throws: ArgumentMismatch.invalidValue(option: "-t", value: Self.bytes("-q"), needs: "a value")) {
            try Self.sample.parse(Self.argv("p", "cmd", "-t", "-q", "a"))
        }
        #expect(throws: ArgumentMismatch.invalidValue(option: "-t", value: [], needs: "a value")) {
            try Self.sample.parse(Self.argv("p", "cmd", "-t", "", "a"))
        }
        #expect(throws: ArgumentMismatch.missingValue(option: "-t", needs: "a value")) {
            try Self.sample.parse(Self.argv("p", "cmd", "a", "-t"))
        }
        // An anyWord value is taken whatever it is, and repeated values are kept in order.
        let parsed = try Self.sample.parse(Self.argv("p", "cmd", "--tag", "-q", "a", "--tag", "", "--tag", "--"))
        #expect(parsed.values("--tag") == [Self.bytes("-q"), [], Self.bytes("--")])
        #expect(parsed.value("--tag") == Self.bytes("--") && !parsed.isSet("-q") && parsed.operands == [Self.bytes("a")])
    }

    @Test func anOptionGivenTwiceIsAMismatchUnlessRepeatable() {
        #expect(throws: ArgumentMismatch.repeated(option: "-q")) { try Self.sample.parse(Self.argv("p", "cmd", "-q", "a", "--quiet")) }
        #expect(throws: ArgumentMismatch.repeated(option: "-s")) { try Self.sample.parse(Self.argv("p", "cmd", "-s", "1", "-s2", "a")) }
        #expect(throws: ArgumentMismatch.invalidValue(option: "-q", value: Self.bytes("x"), needs: "a value")) {
            try ArgumentForm(options: [ArgumentOption(["-q"], value: .none, attachedValue: true)], operands: .none)
                .parse(Self.argv("p", "-qx"))
        }
    }

    @Test func theTerminatorEndsTheOptions() throws {
        let parsed = try Self.sample.parse(Self.argv("p", "cmd", "-q", "--", "-s", ""))
        #expect(parsed.operands == [Self.bytes("-s"), []] && parsed.isSet("-q") && !parsed.isSet("-s"))
        #expect(try Self.sample.parse(Self.argv("p", "cmd", "a", "--", "--")).operands == [Self.bytes("a"), Self.bytes("--")])
        let strict = ArgumentForm(command: "cmd", operands: ArgumentOperands(name: "file", count: 0...3, terminator: false))
        #expect(throws: ArgumentMismatch.unknownOption(Self.bytes("--"))) { try strict.parse(Self.argv("p", "cmd", "--", "a")) }
    }

    @Test func operandsAreBytesAnyWordThatIsNoOption() throws {
        let raw: [[UInt8]] = [Self.bytes("p"), Self.bytes("cmd"), [0x66, 0xFF, 0x0A], []]
        #expect(try Self.sample.parse(raw).operands == [[0x66, 0xFF, 0x0A], []])
        #expect(try Self.sample.parse(Self.argv("p", "cmd", "help")).operands == [Self.bytes("help")])
        #expect(throws: ArgumentMismatch.unknownOption(Self.bytes("-"))) { try Self.sample.parse(Self.argv("p", "cmd", "-")) }
        #expect(throws: ArgumentMismatch.unknownOption(Self.bytes("-x.pdf"))) { try Self.sample.parse(Self.argv("p", "cmd", "-x.pdf")) }
    }

    @Test func operandCountAndCommandWord() {
        #expect(throws: ArgumentMismatch.operandCount(given: 0, expected: 1...2, name: "file")) {
            try Self.sample.parse(Self.argv("p", "cmd", "-q"))
        }
        #expect(throws: ArgumentMismatch.operandCount(given: 3, expected: 1...2, name: "file")) {
            try Self.sample.parse(Self.argv("p", "cmd", "a", "b", "c"))
        }
        #expect(throws: ArgumentMismatch.otherCommand) { try Self.sample.parse(Self.argv("p", "other", "a")) }
        #expect(throws: ArgumentMismatch.otherCommand) { try Self.sample.parse(Self.argv("p")) }
        #expect(Self.sample.isNamed(by: Self.argv("p", "cmd")) && !Self.sample.isNamed(by: Self.argv("p", "cmdx")))
        #expect(!Self.sample.isNamed(by: Self.argv("p")))
        let version = ArgumentForm(command: "--version", operands: .none)
        #expect(throws: Never.self) { try version.parse(Self.argv("p", "--version")) }
        #expect(throws: ArgumentMismatch.unknownOption(Self.bytes("--"))) { try version.parse(Self.argv("p", "--version", "--")) }
        #expect(throws: ArgumentMismatch.operandCount(given: 1, expected: 0...0, name: "operand")) {
            try version.parse(Self.argv("p", "--version", "x"))
        }
    }

    @Test func uninterpretedWordsAreLeftAsTheyAre() throws {
        let form = ArgumentForm(command: "--service", operands: .uninterpreted)
        let parsed = try form.parse(Self.argv("p", "--service", "--idle-timeout", "5", "--", ""))
        #expect(parsed.operands == Self.argv("--idle-timeout", "5", "--", ""))
        #expect(try form.parse(Self.argv("p", "--service")).operands.isEmpty)
    }

    @Test func messages() {
        #expect(ArgumentMismatch.unknownOption([0x2D, 0x78, 0xFF]).description == "unknown option -x\u{FFFD}")
        #expect(ArgumentMismatch.missingValue(option: "--timeout", needs: "a number of seconds").description
                == "--timeout needs a number of seconds")
        #expect(ArgumentMismatch.invalidValue(option: "--password", value: [], needs: "a value").description == "--password needs a value")
        #expect(ArgumentMismatch.repeated(option: "-d").description == "-d is given more than once")
        #expect(ArgumentMismatch.operandCount(given: 0, expected: 1...Int.max, name: "file").description == "give at least one file")
        #expect(ArgumentMismatch.operandCount(given: 1, expected: 2...2, name: "file").description == "give 2 files")
        #expect(ArgumentMismatch.operandCount(given: 3, expected: 2...2, name: "file").description == "give at most 2 files")
        #expect(ArgumentMismatch.operandCount(given: 1, expected: 0...0, name: "operand").description == "no operands are taken")
    }

    @Test func commandLineBytesReadsThisProcessArgv() {
        let words = CommandLineBytes.read()
        #expect(words.count == CommandLine.arguments.count && !words.isEmpty)
        #expect(words.map { String(decoding: $0, as: UTF8.self) } == CommandLine.arguments)
    }
}
