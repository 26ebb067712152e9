#if canImport(Glibc)
import Glibc
#endif
import QuirePrint
import Testing

/// `quire print -o` reads its words as `lp -o` does: each case is also given to libcups's own
/// `cupsParseOptions` (loaded here with dlopen), and both must give the same options.
@Suite("-o option words, as cupsParseOptions reads them")
struct PrintOptionWordsTests {
    static let cases: [(argument: String, expected: [(String, String)])] = [
        ("job-name=\"a b\"", [("job-name", "a b")]),
        ("a=1 b=2", [("a", "1"), ("b", "2")]),
        ("x=a\\ b", [("x", "a b")]),
        ("nofit", [("fit", "false")]),
        ("fit", [("fit", "true")]),
        ("title='it''s'", [("title", "its")]),
        ("c={a=1 b=\"x y\"}", [("c", "{a=1 b=\"x y\"}")]),
        ("k=\"unclosed", [("k", "unclosed")]),
        ("d=a\"b c\"d", [("d", "a\"b"), ("c\"d", "true")]),
        ("  sp=1   ", [("sp", "1")]),
        ("q=\\\"", [("q", "\"")]),
        ("e=", [("e", "")]),
        ("m=x=y", [("m", "x=y")]),
        ("t=\"a b\"c d=1", [("t", "a bc"), ("d", "1")]),
        ("t=a\\\"b", [("t", "a\"b")]),
        ("t='a\\'b'", [("t", "a'b")]),
        ("t='a b'\"c d\"", [("t", "a bc d")]),
        ("t={a b", [("t", "{a b")]),
        ("t={a {b} c} x=1", [("t", "{a {b} c}"), ("x", "1")]),
        ("t=\\{a", [("t", "{a")]),
        ("noa=1", [("noa", "1")]),
        ("x=a,b", [("x", "a,b")]),
        ("t=\"a\\\\b\"", [("t", "a\\b")]),
        ("a b=", [("a", "true"), ("b", "")]),
        ("t=\ttab", [("t", ""), ("tab", "true")]),
        ("u=\"x y\" v", [("u", "x y"), ("v", "true")]),
        ("w=\"\"", [("w", "")]),
    ]

    @Test func wordsAreReadAsLpReadsThem() throws {
        let parse = try CUPSParse()
        for (argument, expected) in Self.cases {
            let ours = try PrintOptions.parseExtra(argument).map { ($0.key, $0.value) }
            #expect(ours.map(\.0) == expected.map(\.0) && ours.map(\.1) == expected.map(\.1), "\(argument): \(ours)")
            // libcups keeps one value per name (the last), sorted by name.
            var last: [String: String] = [:]
            for (key, value) in ours { last[key] = value }
            let theirs = parse(argument)
            #expect(theirs.count == last.count, "\(argument): libcups \(theirs)")
            for (key, value) in theirs { #expect(last[key] == value, "\(argument): \(key) is \(value) for libcups") }
        }
    }

    @Test func emptyOrNamelessWordsAreErrors() {
        for argument in ["", "   ", "=v", "no"] {
            #expect(throws: PrintError.self, "\(argument)") { try PrintOptions.parseExtra(argument) }
        }
    }

    /// libcups's cupsParseOptions, reached with dlopen (the test links nothing of CUPS).
    struct CUPSParse {
        typealias Parse = @convention(c) (UnsafePointer<CChar>, Int32, UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> Int32
        typealias Free = @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void
        let parse: Parse
        let free: Free

        init() throws {
            guard let library = dlopen("libcups.so.2", RTLD_NOW | RTLD_LOCAL),
                  let parse = dlsym(library, "cupsParseOptions"), let free = dlsym(library, "cupsFreeOptions") else {
                throw Failure("libcups.so.2 cannot be loaded")
            }
            self.parse = unsafeBitCast(parse, to: Parse.self)
            self.free = unsafeBitCast(free, to: Free.self)
        }

        func callAsFunction(_ argument: String) -> [(String, String)] {
            var options: UnsafeMutableRawPointer?
            let count = parse(argument, 0, &options)
            defer { free(count, options) }
            guard let options else { return [] }
            // cups_option_t is { char *name; char *value; }.
            let stride = 2 * MemoryLayout<UnsafePointer<CChar>>.stride
            return (0..<Int(count)).map { index in
                let name = options.load(fromByteOffset: index * stride, as: UnsafePointer<CChar>.self)
                let value = options.load(fromByteOffset: index * stride + MemoryLayout<UnsafePointer<CChar>>.stride,
                                         as: UnsafePointer<CChar>.self)
                return (String(cString: name), String(cString: value))
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
