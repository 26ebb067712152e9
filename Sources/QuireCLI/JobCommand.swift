import ArgumentParser
import Quire

struct JobCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "job",
        abstract: "Show one job's details: state, reasons, pages, times, size.")

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Argument(help: ArgumentHelp("Job id (12 or queue-12).", valueName: "id"))
    var id: String

    func run() async throws {
        do {
            let job = try JobQueue().job(try PrintFailure.jobID(id))
            Terminal.out(json ? try JobFormatter.json(job) + "\n" : JobFormatter.card(job))
        } catch let error as PrintError {
            throw PrintFailure.report(error).exitCode
        }
    }
}
