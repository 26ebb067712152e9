import ArgumentParser
import Quire
import QuireIntegration

/// sysexits(3) exit statuses.
enum ExitStatus: Int32 {
    case ok = 0
    case usage = 64
    case dataError = 65
    case noInput = 66
    case unavailable = 69
    case software = 70
    case osError = 71
    case cannotCreate = 73
    case ioError = 74
    case temporaryFailure = 75
    case noPermission = 77
    case configuration = 78

    var exitCode: ExitCode { ExitCode(rawValue) }

    static func of(_ error: InputError) -> ExitStatus {
        switch error.kind {
        case .ioError: return .ioError
        case .empty, .tooLarge: return .dataError
        case .changedWhileOpening: return .temporaryFailure
        default: return .noInput
        }
    }

    static func of(_ error: DocumentError) -> ExitStatus {
        if let input = error.inputError { return of(input) }
        switch error.kind {
        case .damaged, .passwordRequired, .limitExceeded: return .dataError
        case .unsupported: return .dataError
        case .input: return .noInput
        }
    }

    /// For the errors the library reports about a file (input, content, output, viewer): writes
    /// the one-line `quire: PATH: reason` message and returns the exit code to throw; usage
    /// errors found while running are one line too. Returns nil for anything else (exit codes),
    /// which the caller rethrows unchanged.
    static func report(_ error: any Error) -> ExitCode? {
        reportStatus(error)?.exitCode
    }

    /// ``report(_:)`` as an ``ExitStatus``.
    static func reportStatus(_ error: any Error) -> ExitStatus? {
        let status: ExitStatus
        let message: String
        switch error {
        case let error as InputError: (status, message) = (of(error), error.hinted)
        case let error as DocumentError: (status, message) = (of(error), error.hinted)
        case let error as OutputError: (status, message) = (error.kind == .sameAsInput ? .usage : .cannotCreate, error.description)
        case let error as DocumentUsageError: (status, message) = (.usage, error.description)
        // An argument found wrong only once the command runs (a malformed --pages): one line as
        // well. The parser's usage text would name `quire <subcommand>`, not the command.
        case let error as ValidationError: (status, message) = (.usage, error.message)
        case let error as DefaultApplication.OpenError: (status, message) = (.unavailable, error.description)
        default: return nil
        }
        Terminal.error(message)
        return status
    }
}
