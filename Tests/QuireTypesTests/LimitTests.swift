import Testing
import QuireTypes

@Suite struct LimitTests {
    @Test func namesOptionsAndEnvironmentVariables() {
        #expect(Limit.pixels.option == "--max-pixels")
        #expect(Limit.pixels.environmentVariable == "QUIRE_MAX_PIXELS")
        #expect(Limit.inflatedSize.environmentVariable == "QUIRE_MAX_INFLATED_SIZE")
        #expect(Limit.time.option == "--timeout" && Limit.time.environmentVariable == "QUIRE_TIMEOUT")
        #expect(Set(Limit.allCases.map(\.option)).count == Limit.allCases.count)
        #expect(Limit.pixels.exceeded(100_000_000, "pixels") == "more than the maximum of 100000000 pixels (--max-pixels)")
    }

    @Test func inputFileSizeMessageNamesTheOption() throws {
        let path = DocumentPath("/proc/self/exe")
        #expect(throws: InputError.self) { _ = try InputFile(path: path, maximumSize: 10) }
        do {
            _ = try InputFile(path: path, maximumSize: 10)
        } catch {
            #expect(error.kind == .tooLarge)
            #expect(error.description.hasSuffix("more than the maximum of 10 bytes (--max-file-size)"), "\(error.description)")
        }
    }
}
