// The glue every fuzz target shares. Built with -DFUZZING (scripts/fuzz.sh), a target's
// `<module>_main` entry point (SwiftPM's name for an executable's main) calls ``FuzzDriver/run``,
// which hands control to libFuzzer; in a plain build the target's `@main` calls
// ``FuzzDriver/replay``, which runs saved inputs (the regression corpus) through the same body.
import Foundation
@_exported import SanitizerSupport

public enum FuzzDriver {
    /// The fuzzed function of this process (one target per executable).
    nonisolated(unsafe) static var body: ([UInt8]) -> Void = { _ in }

    /// Splits an input into `count` fields at NUL bytes (the last field keeps the rest, NULs
    /// included; missing fields are empty), so one input can carry several arguments.
    public static func fields(_ bytes: [UInt8], _ count: Int) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var rest = bytes[...]
        while result.count < count - 1, let nul = rest.firstIndex(of: 0) {
            result.append(Array(rest[..<nul]))
            rest = rest[(nul + 1)...]
        }
        result.append(Array(rest))
        while result.count < count { result.append([]) }
        return result
    }

    /// LibreOffice is kept out of the fuzzed process: Quire runs it only in sandboxed workers,
    /// and its own leaks and crashes (a leak in Writer's line layout stopped CI's smoke once) are
    /// not Quire's to find here. An office file then takes Quire's own path, the embedded
    /// preview read from the zip, as on a machine without LibreOffice.
    static func keepLibreOfficeOut() {
        setenv("QUIRE_OFFICE_PROGRAM", "/nonexistent/quire-fuzz/libreoffice/program", 1)
    }

    /// Runs `body` over the contents of each file named on the command line.
    public static func replay(_ body: ([UInt8]) -> Void) throws {
        keepLibreOfficeOut()
        for path in CommandLine.arguments.dropFirst() {
            body([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        }
    }

    #if FUZZING
    /// Hands control to libFuzzer, which calls `body` for every input it generates.
    public static func run(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                           _ body: @escaping ([UInt8]) -> Void) -> CInt {
        self.body = body
        keepLibreOfficeOut()
        var count = argc
        var arguments = argv
        return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzerTestOneInput(data, size) }
    }
    #endif
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// libFuzzer's runtime refers to this symbol even when driven through LLVMFuzzerRunDriver.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.body(size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
#endif
