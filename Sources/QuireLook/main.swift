#if canImport(Glibc)
import Glibc
#endif
import CGtk
import Quire
import QuireArguments
import QuireSystem
import QuireViewer
import QuireRenderService

// quire-look: the Quick Look window. `quire look` runs it (from libexec/quire/) when there is
// a display; it is a separate executable so that the quire binary never links GTK.
//
//   quire-look [--password PASSWORD] [--no-resume] [--print] [--render-worker-argument ARG]... [--timeout S] [--] FILE...

LookTrace.mark("quire-look started")

// quire runs commands on a thread of Swift's pool, whose signal mask blocks every asynchronous
// signal, and execv keeps the mask: without this, SIGTERM and Ctrl-C would not end the window.
var noSignals = sigset_t()
sigemptyset(&noSignals)
pthread_sigmask(SIG_SETMASK, &noSignals, nil)

// Page buffers (megabytes each, made and dropped as pages are viewed) go back to the system
// when freed instead of staying in malloc's heaps (docs/notes/look.md, memory).
MallocTuning.returnLargeBlocksToTheSystem()

func fail(_ message: String, _ status: Int32) -> Never {
    let line = "quire look: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    // _exit: the file may be opening on another thread (poppler's static destructors must not
    // run under it); nothing is buffered (the message is written directly).
    _exit(status)
}

// The command line as QuireArguments describes it (LookWindowArguments, which quire look
// writes); file names are taken as the bytes given (not every name is UTF-8).
let request: LookWindowArguments
do {
    switch try LookWindowArguments.parse(CommandLineBytes.read()) {
    case .service(let service):
        // quire-look --service: the file manager's previewer on the session bus (PreviewerService).
        PreviewerServiceMain.run(service)
    case .window(let arguments):
        request = arguments
    }
} catch {
    fail(error.description, 64)
}
let password = request.password
let files = request.files.map { DocumentPath(bytes: $0) }

// GTK would otherwise register an accessibility bridge failure loudly; the display is needed.
// The name window lists and accessibility clients (AT-SPI) show for the program.
// The window draws pages with cairo, so it asks GTK for its cairo renderer and no OpenGL: GTK 4
// would otherwise set up GL when the display opens, to choose the windows' visual; with
// software GL (Mesa llvmpipe: no GPU, a virtual display) that alone loads LLVM, ~60 MB resident
// and a few hundred ms before the window can show (docs/notes/look.md). A user's own
// GSK_RENDERER or GDK_DEBUG wins.
if getenv("GSK_RENDERER") == nil && getenv("GDK_DEBUG") == nil {
    setenv("GSK_RENDERER", "cairo", 1)
    setenv("GDK_DEBUG", "gl-disable", 1)
} else if let renderer = getenv("GSK_RENDERER"), String(cString: renderer) == "cairo", getenv("GDK_DEBUG") == nil {
    setenv("GDK_DEBUG", "gl-disable", 1)
}
var configuration = ViewerModel.Configuration()
if !request.resume { configuration.resume = nil }
// Files are opened and pages rendered by quire's render worker (a file that crashes or hangs
// the renderer costs that file or page, not the window); quire passes its command line.
if !request.renderWorker.isEmpty {
    let renderWorker = request.renderWorker
    guard renderWorker.count >= 2, renderWorker[1] == WorkerCommand.subcommand,
          let (render, limits) = WorkerCommand.parse(renderWorker.dropFirst(2).map { Array($0.utf8) }) else {
        fail("--render-worker-argument: not a render worker's command line", 64)
    }
    configuration.limits = render
    configuration.worker = WorkerCommand(executable: renderWorker[0], renderLimits: render, limits: limits)
}
configuration.renderTimeout = request.timeout
// The page view of a window of the default size (900×860 less its bars, or less on a small
// screen) is larger than this on a 1024×768 screen or any larger one: an image smaller than it
// is shown at its own size whatever the view's exact size, so it is rendered as soon as the
// worker has opened it, while GTK starts, instead of after the window is built (an animated
// GIF's first frame). On a smaller screen the view asks for its own size as before.
configuration.pageOneAheadBox = (width: 800, height: 560)
configuration.csvAsSpreadsheet = request.csvAsSpreadsheet
// The worker starts and opens the first file (its pages' sizes read there) at once, on the
// model's render thread, while this thread opens the display and loads GTK's settings and theme.
// GTK's own theme is not loaded for libadwaita to replace. Here, before the render thread
// starts (the environment changes only while one thread runs) and after the worker's command
// has read the environment it passes on; Adwaita.start() takes the name away again.
Adwaita.skipGTKTheme()
let model = ViewerModel(paths: files, configuration: configuration, unacceptedLimit: 2) { LookWindow.wake() }
if let password { model.unlock(password: password) }
LookTrace.mark("render thread started")

g_set_prgname("quire-look")
g_set_application_name("Quire Look")
if gtk_init_check() == 0 { fail("cannot open the display", 69) }
LookTrace.mark("display opened")
Adwaita.start()
LookTrace.mark("libadwaita started")
ColorScheme.followDesktop()
_ = gtk_settings_get_default()  // GTK's settings and theme, here while the file opens
LookTrace.mark("theme loaded")
let window = LookWindow(model: model, deferActions: true)
LookTrace.mark("window built (widgets)")
window.present()
LookTrace.mark("window presented")
if request.printSheet { window.showPrintSheetOnly() }
while !window.isClosed {
    g_main_context_iteration(nil, 1)
}
// Let the window's destruction reach the display before leaving.
while g_main_context_iteration(nil, 0) != 0 {}
exit(0)
