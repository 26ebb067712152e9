// libFuzzer target: content-type sniffing and the display escaping of arbitrary bytes.
// Input: a file name (the bytes before the first NUL within the first 256 bytes, else the first
// 16 bytes — a name is at most NAME_MAX = 255 bytes), then the content (at most
// ContentType.sniffLength is ever read from a file, hence -max_len=4096 in Fuzz/settings).
// Built with -sanitize=fuzzer (make fuzz); without it, a replay driver runs saved inputs.
import FuzzDriver
import QuireTypes

func fuzzOne(_ bytes: [UInt8]) {
    let split = bytes.prefix(256).firstIndex(of: 0) ?? min(bytes.count, 16)
    let name = Array(bytes[..<split])
    let content = Array(bytes[min(split + 1, bytes.count)...])
    let type = ContentType.detect(fileName: name, prefix: content)
    precondition(!type.mimeType.isEmpty)
    let escaped = DocumentPath(bytes: name).description
    precondition(!escaped.utf8.contains(0x0A))
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
