import CAdwaita
import CGtk
import QuireViewer
import QuireRenderService

/// What the window shows in place of a preview it cannot draw: a GNOME status page (libadwaita's
/// `AdwStatusPage`: an icon, a title, a description in plain words) and, for an encrypted
/// document, the password field centred under the text.
@MainActor
final class ProblemPage {
    let root: UnsafeMutablePointer<GtkWidget>
    let passwordEntry = gtk_password_entry_new()!
    let unlockButton = Accessibility.textButton("Unlock")
    private let passwordRow = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!

    init() {
        root = adw_status_page_new()!
        Accessibility.setLabel(passwordEntry, "Password")
        gtk_password_entry_set_show_peek_icon(cast(passwordEntry), 1)
        gtk_widget_set_size_request(passwordEntry, 240, -1)
        gtk_box_append(cast(passwordRow), passwordEntry)
        gtk_widget_add_css_class(unlockButton, "suggested-action")
        gtk_box_append(cast(passwordRow), unlockButton)
        gtk_widget_set_halign(passwordRow, GTK_ALIGN_CENTER)
        adw_status_page_set_child(OpaquePointer(root), passwordRow)
    }

    /// Shows why `fileName` cannot be shown.
    func show(fileName: String, problem: RenderProblem) {
        let words = Self.wording(fileName: fileName, problem: problem)
        adw_status_page_set_icon_name(OpaquePointer(root), words.icon)
        adw_status_page_set_title(OpaquePointer(root), words.title)
        adw_status_page_set_description(OpaquePointer(root), words.description)
        gtk_widget_set_visible(passwordRow, problem.needsPassword ? 1 : 0)
    }

    /// The page's icon, title and description for `problem`: the title says what could not be
    /// done, the description why, as a sentence (the render service's "damaged: …" prefix
    /// becomes "The file is damaged: …", and a detail in brackets that only says the same again
    /// is left out).
    static func wording(fileName: String, problem: RenderProblem) -> (icon: String, title: String, description: String) {
        let quoted = "“\(fileName)”"
        switch problem.kind {
        case .passwordRequired:
            return ("dialog-password-symbolic", "\(quoted) Is Password-Protected", "Type its password to open it.")
        case .wrongPassword:
            return ("dialog-password-symbolic", "\(quoted) Is Password-Protected", "That password is not correct. Try again.")
        case .damaged, .unreadable, .unsupported, .limitExceeded, .workerFailed, .cancelled:
            break
        }
        var reason = problem.message
        for prefix in ["damaged: ", "unreadable: ", "unsupported: "] where reason.hasPrefix(prefix) {
            reason.removeFirst(prefix.count)
        }
        // "not a readable PDF (PDF document is damaged)": the bracket repeats the kind.
        if reason.hasSuffix(")"), let open = reason.lastIndex(of: "("), open > reason.startIndex,
           reason[reason.index(before: open)] == " " {
            let detail = reason[reason.index(after: open)..<reason.index(before: reason.endIndex)].lowercased()
            if problem.kind == .damaged && detail.contains("damaged") { reason = String(reason[..<reason.index(before: open)]) }
        }
        if reason.hasPrefix("not ") { reason = "it is " + reason }
        let lead: String
        switch problem.kind {
        case .damaged: lead = "The file is damaged: "
        case .unreadable: lead = "The file cannot be read: "
        case .limitExceeded: lead = "The file is too large to show: "
        default: lead = ""
        }
        var sentence = lead.isEmpty ? reason.prefix(1).uppercased() + reason.dropFirst() : lead + reason
        if let last = sentence.last, !".!?".contains(last) { sentence += "." }
        let icon = problem.kind == .unsupported ? "dialog-question-symbolic" : "dialog-warning-symbolic"
        return (icon, "Cannot Open \(quoted)", sentence)
    }
}
