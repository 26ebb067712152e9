import ArgumentParser
import Quire

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
}
