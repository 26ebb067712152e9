#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// LeakSanitizer's end-of-process check, for processes that end with `_exit` (which skips the
/// exit handlers the sanitizer runs it from): `quire`'s short paths under `make asan`.
public enum LeakCheck {
    /// Runs the check now when LeakSanitizer is in the process (it reports and ends the process
    /// with its exit code if something leaked); nothing otherwise (one failed symbol lookup).
    public static func runIfSanitized() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__lsan_do_leak_check") else { return }
        typealias Check = @convention(c) () -> Void
        unsafeBitCast(symbol, to: Check.self)()
    }
}
