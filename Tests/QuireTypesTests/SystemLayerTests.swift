import Foundation
import QuireSystem
import Synchronization
import Testing
import QuireTestSupport

/// The system layer: typed errors, descriptors with EINTR and short counts handled once, the
/// one atomic writer, and blocking work kept off the cooperative pool.
@Suite struct SystemLayerTests {
    static func scratch() -> String {
        let path = NSTemporaryDirectory() + "quire-system-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func errnoDescribesItselfWithTheSystemMessage() {
        #expect(Errno.noSuchFileOrDirectory.description == "No such file or directory")
        #expect(Errno(rawValue: ENOTDIR) == .notDirectory)
        #expect(throws: Errno.noSuchFileOrDirectory) { _ = try FileDescriptor.open("/nonexistent/quire", O_RDONLY) }
    }

    @Test func aPipeCarriesLargeWritesWholeAndIsCloseOnExec() throws {
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        #expect(fcntl(readEnd.rawValue, F_GETFD) & FD_CLOEXEC != 0 && fcntl(writeEnd.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        // More than a pipe buffer (64 KiB): writeAll must loop over short writes.
        let payload = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let writer = Thread { try? writeEnd.writeAll(payload); try? writeEnd.close() }
        writer.start()
        let back = try readEnd.read(exactly: payload.count)
        #expect(back == payload)
        #expect(try readEnd.read(exactly: 1) == nil)   // end of file
        try readEnd.close()
    }

    @Test func aChildProcessGetsItsOwnPipesEnvironmentAndProcessGroup() throws {
        // /bin/sh runs a fixed script here (argv only, no file names): it echoes its input, its
        // environment variable and whether it leads its own process group.
        let child = try ChildProcess.spawn(
            ["/bin/sh", "-c", "read line; echo \"$line $QUIRE_PIPED_TEST\"; ps -o pgid= -p $$"],
            ChildProcess.Options(environment: ["QUIRE_PIPED_TEST=yes", "PATH=/usr/bin:/bin"], standardInput: .pipe,
                                 standardOutput: .pipe, standardError: .null, ownProcessGroup: true, defaultSignals: [SIGPIPE]))
        let input = try #require(child.input), childOutput = try #require(child.output)
        try input.writeAll(Array("hello\n".utf8))
        try input.close()
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try childOutput.read(into: $0) }
            if count == 0 { break }
            output += chunk[..<count]
        }
        try childOutput.close()
        #expect(child.wait() == .exited(0))
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        #expect(lines.first == "hello yes")
        #expect(lines.last.map { $0.trimmingCharacters(in: .whitespaces) } == String(child.pid), "its own process group")
    }

    @Test func aChildThatCannotStartSaysWhichStepFailed() {
        do {
            _ = try ChildProcess.spawn(["/nonexistent/quire-worker"], ChildProcess.Options(environment: []))
            Issue.record("a missing program started")
        } catch {
            #expect(error.step == .spawn)
            #expect(error.errno == .noSuchFileOrDirectory)
        }
    }

    @Test func aChildRunToItsEndReportsItsStatusSignalAndOutput() {
        let echoed = ChildProcess.run(["/bin/echo", "one two"], captureOutput: true)
        #expect(echoed?.termination == .exited(0))
        #expect(echoed.map { String(decoding: $0.output, as: UTF8.self) } == "one two\n")
        #expect(ChildProcess.run(["/bin/false"])?.termination == .exited(1))
        // A fixed script that kills itself: the signal, not an exit status.
        #expect(ChildProcess.run(["/bin/sh", "-c", "kill -TERM $$"])?.termination == .signalled(SIGTERM))
        // The environment given is the whole environment.
        let environment = ChildProcess.run(["/usr/bin/env"], environment: ["ONLY=this"], captureOutput: true)
        #expect(environment.map { String(decoding: $0.output, as: UTF8.self) } == "ONLY=this\n")
        #expect(ChildProcess.run(["/nonexistent/program"]) == nil)
    }

    @Test func aChildInheritsOnlyStandardInputOutputAndError() throws {
        // A descriptor without close-on-exec, as C libraries and mkstemp open them: a child
        // holding it would keep a written script from running ("Text file busy").
        let directory = TemporaryDirectory("quire-inherit")
        let descriptor = open(directory.file("held"), O_WRONLY | O_CREAT, 0o600)
        try #require(descriptor > 2)
        defer { close(descriptor) }
        // /usr/bin/test looks at its own descriptor table: 0 when the descriptor is open there.
        #expect(ChildProcess.run(["/usr/bin/test", "-e", "/proc/self/fd/\(descriptor)"])?.termination == .exited(1))
        #expect(ChildProcess.run(["/usr/bin/test", "-e", "/proc/self/fd/0"])?.termination == .exited(0))
    }

    @Test func theOwnExecutableIsTheRunningTestBinary() throws {
        let own = ProcessControl.ownExecutable
        #expect(own.hasPrefix("/"))
        #expect(FileManager.default.isExecutableFile(atPath: own))
        // Foundation's reading of the same link, a different road to the same answer.
        #expect(own == URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path)
    }

    @Test func atomicReplaceWritesWholeFilesWithExactPermissionsAndLeavesNothingBehind() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/out.bin"
        try atomicReplace(path: target, contents: Array("old".utf8))
        try atomicReplace(path: target, contents: Array("new contents".utf8), permissions: 0o640, durable: true)
        #expect(FileManager.default.contents(atPath: target) == Data("new contents".utf8))
        let attributes = try FileManager.default.attributesOfItem(atPath: target)
        #expect((attributes[.posixPermissions] as? Int) == 0o640)
        // Released without commit: the target keeps its old content, no temporary file stays.
        do {
            let replacement = try AtomicReplacement(replacing: target)
            try replacement.write(Array("half".utf8))
        }
        #expect(FileManager.default.contents(atPath: target) == Data("new contents".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out.bin"])
        // A missing directory is a typed failure at the create step.
        #expect(throws: AtomicReplacement.Failure(step: .create, errno: .noSuchFileOrDirectory)) {
            try atomicReplace(path: directory + "/missing/out.bin", contents: [1])
        }
    }

    @Test func leftoversOfDeadWritersAreRecognised() {
        #expect(AtomicReplacement.isLeftover(".quire-tmp-999999999-1"))
        #expect(!AtomicReplacement.isLeftover(".quire-tmp-\(getpid())-1"))
        #expect(!AtomicReplacement.isLeftover("0123.png"))
    }

    @Test func blockingWorkRunsOffTheCallingThreadAndPassesErrorsThrough() async throws {
        let caller = pthread_self()
        let worker = try await BlockingWork.run { () throws(Errno) in pthread_self() }
        #expect(pthread_equal(caller, worker) == 0)
        await #expect(throws: Errno.ioError) {
            try await BlockingWork.run { () throws(Errno) -> Int in throw Errno.ioError }
        }
    }

    /// The per-file limit's timer (``ThreadTimer``): it signals the thread that made it, not any
    /// other, once, after the seconds given; re-arming with 0 and deinitialising stop it.
    @Test func threadTimerSignalsItsOwnThreadOnce() throws {
        let signal = ThreadTimer.realtimeSignal(5)
        var action = sigaction(), previous = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            ThreadTimerProbe.receivingThread = pthread_self()
            ThreadTimerProbe.count += 1
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = Int32(SA_RESTART)
        #expect(sigaction(signal, &action, &previous) == 0)
        defer { sigaction(signal, &previous, nil) }
        // Another thread that lets the signal in: a process-directed signal could land there.
        let bystander = Thread { sleep(4) }
        bystander.start()
        let blocked = ThreadTimer.unblock(signal)
        defer { ThreadTimer.restore(signal, blocked: blocked) }
        let me = pthread_self()

        ThreadTimerProbe.count = 0
        let timer = try ThreadTimer(signal: signal)
        try timer.arm(seconds: 1)
        let start = Date()
        while ThreadTimerProbe.count == 0 && Date().timeIntervalSince(start) < 10 { usleep(10_000) }
        #expect(ThreadTimerProbe.count == 1 && pthread_equal(ThreadTimerProbe.receivingThread, me) != 0)
        #expect(Date().timeIntervalSince(start) >= 0.9)
        usleep(1_200_000)
        #expect(ThreadTimerProbe.count == 1)   // one-shot

        try timer.arm(seconds: 1)
        try timer.arm(seconds: 0)
        var other: ThreadTimer? = try ThreadTimer(signal: signal)
        try other?.arm(seconds: 1)
        other = nil
        usleep(1_500_000)
        #expect(ThreadTimerProbe.count == 1)   // stopped and deleted timers stay silent
    }
}

/// What the test's signal handler saw (plain globals: a handler may take no lock).
enum ThreadTimerProbe {
    nonisolated(unsafe) static var receivingThread = pthread_t()
    nonisolated(unsafe) static var count: sig_atomic_t = 0
}
