import ArgumentParser
import Quire

struct ReleaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "release",
        abstract: "Release held jobs (printed with -H hold) so they print.")

    @Argument(help: ArgumentHelp("Job ids (12 or queue-12).", valueName: "id"))
    var ids: [String]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("Give at least one job id.") }
    }

    func run() async throws {
        var failure: ExitStatus?
        for id in ids {
            do { try JobQueue().release(try PrintFailure.jobID(id)) } catch {
                failure = failure ?? PrintFailure.report(error)
            }
        }
        if let failure { throw failure.exitCode }
    }
}
