// libFuzzer target: content-type sniffing and the display escaping of arbitrary bytes.
// Built with -sanitize=fuzzer (make fuzz); without it, a replay driver runs saved inputs.
import FuzzDriver
import QuireTypes

func fuzzOne(_ bytes: [UInt8]) {
    let split = bytes.firstIndex(of: 0) ?? min(bytes.count, 16)
    let name = Array(bytes[..<split])
    let content = Array(bytes[min(split + 1, bytes.count)...])
    let type = ContentType.detect(fileName: name, prefix: content)
    precondition(!type.mimeType.isEmpty)
    let escaped = DocumentPath(bytes: name).description
    precondition(!escaped.contains("\n"))
}

#if FUZZING
@_cdecl("fuzz_sniff_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzzOne)
}
#else
@main
struct SniffReplay {
    static func main() throws {
        try FuzzDriver.replay(fuzzOne)
    }
}
#endif
