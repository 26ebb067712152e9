import Testing
import QuireTypes

@Suite struct LimitTests {
    @Test func namesEnvironmentVariables() {
        #expect(Limit.pixels.environmentVariable == "QUIRE_MAX_PIXELS")
        #expect(Limit.inflatedSize.environmentVariable == "QUIRE_MAX_INFLATED_SIZE")
        #expect(Limit.time.environmentVariable == "QUIRE_TIMEOUT")
        #expect(Set(Limit.allCases.map(\.rawValue)).count == Limit.allCases.count)
        // Every name is its option upper-cased, "-" as "_" (the documented rule).
        for limit in Limit.allCases {
            #expect(limit.environmentVariable == "QUIRE_" + String(limit.rawValue.uppercased().map { $0 == "-" ? "_" : $0 }))
        }
        #expect(Limit.allCases.map(\.environmentVariable) == ["QUIRE_MAX_FILE_SIZE", "QUIRE_MAX_PIXELS", "QUIRE_MAX_PAGES",
                                                              "QUIRE_MAX_INFLATED_SIZE", "QUIRE_MAX_ENTRIES", "QUIRE_TIMEOUT",
                                                              "QUIRE_MEMORY_LIMIT"])
        // The library says what went wrong; the front-end names its option.
        #expect(Limit.pixels.exceeded(100_000_000, "pixels") == "more than the maximum of 100000000 pixels")
    }

    @Test func inputFileSizeErrorCarriesTheLimit() throws {
        let path = DocumentPath("/proc/self/exe")
        #expect(throws: InputError.self) { _ = try InputFile(path: path, maximumSize: 10) }
        do {
            _ = try InputFile(path: path, maximumSize: 10)
        } catch {
            #expect(error.kind == .tooLarge)
            #expect(error.description.hasSuffix("more than the maximum of 10 bytes"), "\(error.description)")
            #expect(error.remedy == .raise(.fileSize))
        }
    }
}
