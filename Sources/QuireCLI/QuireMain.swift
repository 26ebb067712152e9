#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SanitizerSupport
import Quire
import QuireRenderService

/// The entry point: the lines ``FastPathTable`` takes (`--version`, the thumbnailer contract, the
/// plain forms of `can-print` and `info`, the viewer's render worker, `look FILE...`, the common
/// forms of `print`) are answered without swift-argument-parser; everything else goes through it.
@main
enum QuireMain {
    static func main() async {
        // Where a command's documents run LibreOffice, GStreamer and Ghostscript is given to
        // each document (CommandInterpreters), and to the render worker's (Interpreters.worker).
        let entries = RawArguments.entries
        if let request = FastPathTable.request(for: RawArguments.entries) {
            await request.run()   // ends the process, unless the line is the parser's after all
        }
        if DashFileNameCheck.refused(entries) { end(ExitStatus.usage.rawValue) }
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
        OfficeProcessState.removePrivateFiles()
        LeakCheck.runIfSanitized()
        _exit(status)
    }
}
