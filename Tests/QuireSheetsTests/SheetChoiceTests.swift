import QuireSheets
import Testing

/// The print choices declared once (``SheetOptions/choices``): what `lp -o` reads, what is
/// written back, and what the sheets show all come from the same declaration.
@Suite("Sheet choices (pure)")
struct SheetChoiceTests {
    /// Every value of every choice is written as `lp -o` words and read back as the same value;
    /// the default writes nothing.
    @Test func everyValueRoundTripsThroughItsLpWords() throws {
        for choice in SheetOptions.choices {
            for (index, value) in choice.values.enumerated() {
                var options = SheetOptions()
                choice.choose(index, in: &options)
                #expect(choice.index(in: options) == index, "\(choice.name) \(value.word)")
                let words = options.optionWords
                #expect(words.isEmpty == (index == 0), "\(choice.name) \(value.word): \(words)")
                var back = SheetOptions()
                for (name, word) in words { #expect(try back.apply(name, word), "\(name)=\(word)") }
                #expect(back == options, "\(choice.name) \(value.word): \(words)")
            }
        }
    }

    @Test func lpsOtherSpellingsSetTheSameChoice() throws {
        var options = SheetOptions()
        #expect(try options.apply("landscape", "true") && options.orientation == .landscape)
        #expect(try options.apply("orientation-requested", "portrait") && options.orientation == .portrait)
        #expect(try options.apply("fit-to-page", "") && options.scaling == .fit)
        #expect(try options.apply("scaling", "37%") && options.scaling == .percent(37))
        let scaling = try #require(SheetOptions.choice(named: "print-scaling"))
        #expect(scaling.index(in: options) == nil && scaling.value(in: options).shown == "37 %")
        #expect(options.optionWords.contains { $0 == ("scaling", "37") })
        #expect(try options.apply("booklet", "yes") && options.booklet)
        #expect(SheetOptions.spellings(of: scaling) == ["print-scaling", "fit-to-page", "scaling"])
        #expect(try !options.apply("copies", "2"), "not a sheet option")
    }

    @Test func aWrongValueSaysWhatTheChoiceExpects() {
        let cases: [(String, String, String)] = [
            ("number-up", "3", "number-up=3: expected 1, 2, 4, 6, 9 or 16"),
            ("page-set", "x", "page-set=x: expected all, odd or even"),
            ("outputorder", "up", "outputorder=up: expected normal or reverse"),
            ("booklet", "maybe", "booklet=maybe: expected true or false"),
            ("print-scaling", "50%", "print-scaling=50%: expected auto, fit or none"),
            ("orientation-requested", "7", "orientation-requested=7: expected 3 (portrait) or 4 (landscape)"),
            ("page-border", "wavy", "page-border=wavy: expected one of none, single, single-thick, double, double-thick"),
        ]
        for (name, value, message) in cases {
            var options = SheetOptions()
            #expect(throws: SheetError(message)) { try options.apply(name, value) }
        }
    }

    /// Order and border mean nothing with one page per side: they are not offered then, and
    /// the order alone composes nothing.
    @Test func whatAppliesFollowsTheOtherChoices() throws {
        let layout = try #require(SheetOptions.choice(named: "number-up-layout"))
        let border = try #require(SheetOptions.choice(named: "page-border"))
        var options = SheetOptions()
        #expect(!layout.applies(to: options) && !border.applies(to: options))
        options.layout = .tblr
        #expect(options.isIdentity)
        options.border = .single
        #expect(!options.isIdentity, "a border is drawn round one page too")
        options.numberUp = 4
        #expect(layout.applies(to: options) && border.applies(to: options))
        options.booklet = true
        #expect(!layout.applies(to: options))
        #expect(SheetOptions.choices.map(\.label) == ["Orientation", "Scaling", "Pages per sheet", "Page order", "Border",
                                                      "Booklet", "Only print", "Reverse order"])
        #expect(Set(SheetOptions.choices.map(\.name)).count == SheetOptions.choices.count)
        #expect(SheetOptions.choices.filter(\.remembered).map(\.name) == ["print-scaling", "number-up"])
    }

    @Test func cyclingGoesRoundTheValues() throws {
        let perSide = try #require(SheetOptions.choice(named: "number-up"))
        var options = SheetOptions()
        perSide.cycle(&options, step: -1)
        #expect(options.numberUp == 16)
        perSide.cycle(&options, step: 1)
        perSide.cycle(&options, step: 1)
        #expect(options.numberUp == 2)
        let reverse = try #require(SheetOptions.choice(named: "outputorder"))
        reverse.cycle(&options, step: 1)
        #expect(options.reverse && reverse.value(in: options).shown == "yes, last side first")
    }
}
