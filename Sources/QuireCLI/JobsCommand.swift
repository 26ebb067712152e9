import ArgumentParser
import FoundationEssentials
import Quire

struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract: "List print jobs (active by default), on one printer or all.")

    @Option(name: [.customShort("d"), .customLong("destination")], help: ArgumentHelp("Only this printer's jobs.", valueName: "dest"))
    var destination: String?

    @Flag(name: .long, help: "Completed, cancelled and aborted jobs.")
    var completed = false

    @Flag(name: .long, help: "All jobs.")
    var all = false

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        if completed && all { throw ValidationError("--completed and --all exclude each other.") }
    }

    func run() async throws {
        let which: JobQueue.Which = all ? .all : (completed ? .completed : .active)
        let jobs: [JobInfo]
        do {
            if let destination { _ = try PrintSystem().destination(named: destination) }
            jobs = try JobQueue().jobs(on: destination, which: which)
        } catch {
            throw PrintFailure.report(error).exitCode
        }
        if json {
            Terminal.out(try JobFormatter.json(jobs) + "\n")
            return
        }
        for job in jobs { Terminal.out(JobFormatter.line(job) + "\n") }
    }
}
