// The Swift floor: a statically linked Swift program (the Swift runtime in the binary, as in
// `make release`) whose main calls a floor's C/C++ main, built from the same source with
// -Dmain=floor_main. Beside the C floor it shows what the language's runtime adds to the same
// work; beside quire, what quire adds on top of both.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

@_silgen_name("floor_main")
func floorMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32

@main
enum SwiftFloor {
    static func main() {
        exit(floorMain(CommandLine.argc, CommandLine.unsafeArgv))
    }
}
