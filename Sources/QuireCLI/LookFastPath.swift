#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Quire
import QuireTypes
import QuireRenderService

/// `quire look [--no-resume] FILE...` with a display and the window installed, read straight from
/// `argv`: the window is started (exec) without building the argument parser's command tree,
/// whose reflection over every command cost more of the window's start than opening the file.
/// Anything else (another option, `--`, a name starting with `-`, no display, a limit set in the
/// environment) returns nil and goes through the parser, with its validation and messages; both
/// paths start the window through ``LookWindowLauncher/exec(_:paths:password:resume:renderWorker:timeout:printSheet:)``
/// with the same arguments.
enum LookFastPath {
    /// The exit status when `arguments` (the whole `argv`, as bytes) is the plain form and the
    /// window could not be started; nil to use the full parser. On success it does not return.
    static func run(_ arguments: [[UInt8]]) -> ExitStatus? {
        guard let request = parse(arguments), LookWindowLauncher.hasDisplay,
              let window = LookWindowLauncher.executable() else { return nil }
        do {
            try LookCommand.checkExist(request.files)
        } catch {
            return .noInput
        }
        let command = WorkerCommand(executable: ThumbnailBatchRun.ownExecutable())
        let worker = [command.executable] + command.arguments
        Terminal.error(LookWindowLauncher.exec(window, paths: request.files, password: nil, resume: request.resume,
                                               renderWorker: worker, timeout: LookFastPath.defaultTimeout))
        return .unavailable
    }

    /// `--timeout`'s default in ``LookCommand``.
    static let defaultTimeout = 30

    struct Request: Equatable {
        var resume: Bool
        var files: [DocumentPath]
    }

    /// The request, or nil when `arguments` is not exactly `quire look [--no-resume] FILE...`
    /// (files not starting with `-`) with no limit variables in the environment.
    static func parse(_ arguments: [[UInt8]], environment: (String) -> String? = Terminal.environment) -> Request? {
        guard arguments.count >= 3, arguments[1] == Array("look".utf8) else { return nil }
        for limit in Limit.allCases {
            if let value = environment(limit.environmentVariable), !value.isEmpty { return nil }
        }
        var resume = true
        var files: [DocumentPath] = []
        for argument in arguments.dropFirst(2) {
            if argument == Array("--no-resume".utf8), resume {
                resume = false
                continue
            }
            guard let first = argument.first, first != UInt8(ascii: "-") else { return nil }
            files.append(DocumentPath(bytes: argument))
        }
        guard !files.isEmpty else { return nil }
        return Request(resume: resume, files: files)
    }
}
