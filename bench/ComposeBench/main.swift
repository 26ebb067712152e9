// Benchmark helper (not a test): how long the print sheet's preview of the first side takes
// after an option changes, through the render worker exactly as the sheet asks for it
// (`composedSide` requests to a `quire __render-worker`), and the whole composed job
// (`composedJob`). Prints milliseconds; bench/compose-bench.sh runs it.
//
// Usage: compose-bench QUIRE_BINARY PDF [RUNS]
#if canImport(Glibc)
import Glibc
#endif
import QuireRenderService
import QuireSheets
import QuireTypes

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    var start = timespec(), end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    try body()
    clock_gettime(CLOCK_MONOTONIC, &end)
    return Double(end.tv_sec - start.tv_sec) * 1000 + Double(end.tv_nsec - start.tv_nsec) / 1_000_000
}

/// "12.3 ms".
func ms(_ value: Double) -> String { "\(Double(Int(value * 10)) / 10) ms" }

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandleless.error("usage: compose-bench QUIRE_BINARY PDF [RUNS]")
    exit(64)
}
enum FileHandleless {
    static func error(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
let runs = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5
let client = RenderClient(command: WorkerCommand(executable: arguments[1]), timeout: 120)
let document = DocumentRequest(path: DocumentPath(arguments[2]), layout: .paper)
do {
    let opened = try milliseconds { _ = try client.open(document) }
    print("open (facts of the document, first time): \(ms(opened))")
    var options = SheetOptions()
    options.paper = PaperSize.named("A4")
    var times: [Double] = []
    // Each run changes an option (pages per side 2 ↔ 4, then the range), as a user does, and
    // asks for the first side at the strip's size.
    for run in 0..<runs {
        options.numberUp = run % 2 == 0 ? 2 : 4
        let pages = Array(1...(500 - run))
        let request = PageRequest(document: document, page: 0, width: 112, height: 112,
                                  sheet: SheetRequest(pages: pages, options: options))
        times.append(try milliseconds { _ = try client.renderPage(request) })
    }
    times.sort()
    print("first side after an option change (median of \(runs)): \(ms(times[times.count / 2])) (min \(ms(times.first!)), max \(ms(times.last!)))")
    options.numberUp = 2
    var job = 0
    let whole = try milliseconds {
        job = try client.composedJob(document, sheet: SheetRequest(pages: Array(1...500), options: options)).convertedPDF?.count ?? 0
    }
    print("whole job in the worker (2-up of 1-500): \(ms(whole)) (\(job) bytes)")
} catch {
    FileHandleless.error("compose-bench: \(error)")
    exit(70)
}
client.stop()
