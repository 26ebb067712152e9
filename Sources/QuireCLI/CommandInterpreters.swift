import Quire
import QuireRenderService
import QuireSystem

/// Where `quire`'s one-shot commands (`preview`, `info`, `thumbnail FILE OUT`, `print`,
/// `actions`, `can-print`) run the programs that interpret a document: LibreOffice, GStreamer
/// and Ghostscript's pages in a sandboxed render worker of this very `quire` (started on the
/// first document that needs one, kept for the command's next), Ghostscript here with a
/// `$TMPDIR` of its own where there is no sandbox. Every ``Document`` a command opens is given
/// it; the render worker's own documents run their interpreters in the worker
/// (``Interpreters/worker``).
enum CommandInterpreters {
    static let sandbox = OneShotSandbox(executable: { ProcessControl.ownExecutable })
    static let forDocuments = Interpreters(host: sandbox, privateTemporaryDirectory: true)
}
