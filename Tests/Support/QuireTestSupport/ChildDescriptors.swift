#if canImport(Glibc)
import Glibc
#endif

/// A child started by the test support gets standard input, output and error and nothing else.
/// The test process opens files without close-on-exec (Foundation's `write(toFile:atomically:)`
/// uses `mkstemp`); a daemon started by one test while another writes a script would keep that
/// write descriptor for its life, and every `exec` of the script would fail "Text file busy".
enum ChildDescriptors {
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// Adds "close every descriptor from 3 up" (glibc ≥ 2.34; not declared in Swift's Glibc).
    static func closeAboveStandard(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>) {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(actions, 3)
    }
}
