import ArgumentParser
import Quire

/// Reporting failures of the printing commands: one `quire:` line on stderr, a sysexits code.
enum PrintFailure {
    static func status(_ error: PrintError) -> ExitStatus {
        switch error.kind {
        case .schedulerNotRunning, .schedulerNotAnswering, .noPrinters, .notAccepting, .requestFailed: return .unavailable
        case .unknownDestination, .invalidOption, .invalidPageRange, .unknownJob: return .usage
        case .unprintable: return .dataError
        case .notPermitted: return .noPermission
        case .cancelled: return .temporaryFailure
        }
    }

    /// Writes the message for any error the printing commands meet and returns its status.
    static func report(_ error: any Error) -> ExitStatus {
        switch error {
        case let error as PrintError:
            Terminal.error(error.hinted)
            return status(error)
        case let error as InputError:
            Terminal.error(error.hinted)
            return ExitStatus.of(error)
        case let error as OutputError:
            return ExitStatus.reportStatus(error) ?? .cannotCreate
        case let error as DocumentError:
            Terminal.error(error.hinted)
            return ExitStatus.of(error)
        default:
            Terminal.error("\(error)")
            return .software
        }
    }

    /// Job ids as `cancel` takes them: "12" or "queue-12".
    static func jobID(_ argument: String) throws(PrintError) -> Int {
        let digits = argument.split(separator: "-").last.map(String.init) ?? argument
        guard let id = Int(digits), id > 0 else {
            throw PrintError(.unknownJob, "\(argument): not a job id (expected a number or queue-number)")
        }
        return id
    }
}
