import ArgumentParser
import Quire

struct CancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancel jobs by id, or every active job (-a) on one printer (-d) or all.")

    @Flag(name: [.customShort("a"), .customLong("all")], help: "Cancel every active job.")
    var all = false

    @Option(name: [.customShort("d"), .customLong("destination")], help: ArgumentHelp("With -a: only this printer.", valueName: "dest"))
    var destination: String?

    @Argument(help: ArgumentHelp("Job ids (12 or queue-12).", valueName: "id"))
    var ids: [String] = []

    func validate() throws {
        if all && !ids.isEmpty { throw ValidationError("Give job ids or -a, not both.") }
        if !all && ids.isEmpty { throw ValidationError("Give at least one job id, or -a.") }
        if destination != nil && !all { throw ValidationError("-d goes with -a.") }
    }

    func run() async throws {
        let queue = JobQueue()
        if all {
            do {
                if let destination { _ = try PrintSystem().destination(named: destination) }
                let cancelled = try queue.cancelAll(on: destination)
                Terminal.out("cancelled \(cancelled.count) job(s)\n")
            } catch {
                throw PrintFailure.report(error).exitCode
            }
            return
        }
        var failure: ExitStatus?
        for id in ids {
            do { try queue.cancel(try PrintFailure.jobID(id)) } catch {
                failure = failure ?? PrintFailure.report(error)
            }
        }
        if let failure { throw failure.exitCode }
    }
}
