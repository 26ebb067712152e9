import QuireRenderService
import Quire
import QuireThumbnails

/// The CLI's words for a library ``Remedy``: which flag helps. Library messages say only what
/// went wrong; every message the CLI prints about a failure goes through here.
extension Remedy {
    /// Appended to the library's message, e.g. " (--max-pixels)".
    var hint: String {
        switch self {
        case .raise(let limit): " (\(limit.option))"
        case .password: " (give the password with --password)"
        case .force: " (use --force to retry)"
        case .recursive: " (use -r to walk it)"
        case .destination: "; choose one with -d"
        }
    }
}

extension Limit {
    /// The command-line option, e.g. `--max-pixels`.
    var option: String { "--" + rawValue }
}

enum RemedyHint {
    /// `message` followed by the hint for `remedy`, if any.
    static func text(_ message: String, _ remedy: Remedy?) -> String {
        message + (remedy?.hint ?? "")
    }
}

extension InputError {
    /// `PATH: reason` with the flag that helps.
    var hinted: String { RemedyHint.text(description, remedy) }
    var hintedReason: String { RemedyHint.text(reason, remedy) }
}

extension DocumentError {
    /// `PATH: reason` with the flag that helps.
    var hinted: String { RemedyHint.text(description, remedy) }
    var hintedReason: String { RemedyHint.text(reason, remedy) }
}

extension PrintError {
    /// The message (and IPP status) with the flag that helps.
    var hinted: String { RemedyHint.text(description, remedy) }
}

extension ThumbnailFailure {
    /// The reason with the flag that helps.
    var hinted: String { RemedyHint.text(reason, remedy) }
}
