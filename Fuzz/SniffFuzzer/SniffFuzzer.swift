// libFuzzer target: content-type sniffing and the display escaping of arbitrary bytes.
// Built with -sanitize=fuzzer (make fuzz); without it, a replay driver runs saved inputs.
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
// SwiftPM links an executable's entry point as `<module>_main`; hand control to libFuzzer's
// driver from there.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzOne(size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

@_cdecl("fuzz_sniff_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzerTestOneInput(data, size) }
}
#else
import Foundation

@main
struct SniffReplay {
    static func main() throws {
        for path in CommandLine.arguments.dropFirst() {
            fuzzOne([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        }
    }
}
/// LeakSanitizer's built-in suppressions for `make asan` (see Sources/QuireCLI/SanitizerDefaults.swift).
@_cdecl("__lsan_default_suppressions")
func lsanDefaultSuppressions() -> UnsafePointer<CChar> {
    let list: StaticString = """
        leak:libgio-2.0.so
        leak:libglib-2.0.so
        leak:libgobject-2.0.so
        leak:libfontconfig.so
        leak:readBytesFromFile
        leak:Foundation7ProcessC3run

        """
    return UnsafeRawPointer(list.utf8Start).assumingMemoryBound(to: CChar.self)
}
#endif
