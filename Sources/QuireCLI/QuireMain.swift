#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SanitizerSupport

/// The entry point: `quire --version`, the thumbnailer contract (``ThumbnailFastPath``), the
/// plain forms of `can-print` and `info` (``PlainFormFastPath``), the render service's worker
/// (``RenderWorkerEntry``), the window's `look FILE...` (``LookFastPath``) and the common
/// forms of `print` (``PrintFastPath``) take short paths; everything else goes through the
/// argument parser.
@main
enum QuireMain {
    static func main() async {
        // The parser reflects over every command before it answers `--version` (a few million
        // instructions of protocol-conformance lookups); this answers the same text without it.
        if RawArguments.entries.count == 2, RawArguments.entries[1] == Array("--version".utf8) {
            Terminal.out(QuireVersion.string + "\n")
            end(0)
        }
        if let status = ThumbnailFastPath.run(RawArguments.entries) {
            end(status.rawValue)
        }
        if let status = PlainFormFastPath.run(RawArguments.entries) {
            end(status)
        }
        if let status = RenderWorkerEntry.run(RawArguments.entries) {
            exit(status)
        }
        if let status = LookFastPath.run(RawArguments.entries) {
            exit(status.rawValue)
        }
        if let status = await PrintFastPath.run(RawArguments.entries) {
            end(status)
        }
        await QuireCommand.main()
    }

    /// Ends a short path's process once its output is written: `_exit`, not `exit`. Everything
    /// Quire writes goes out unbuffered (``Terminal``, files written and renamed), and the C
    /// libraries' exit handlers only free memory the kernel takes back anyway: poppler's
    /// GlobalParams destructor alone was 0.7 M of `quire info`'s instructions. stdio is flushed
    /// first, for anything a library may have written there, and under `make asan` the leak
    /// check the exit handlers would have run is run here.
    static func end(_ status: Int32) -> Never {
        fflush(nil)
        LeakCheck.runIfSanitized()
        _exit(status)
    }
}
