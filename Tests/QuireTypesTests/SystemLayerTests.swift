import Foundation
import QuireSystem
import Synchronization
import Testing

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

    @Test func aPipedChildGetsItsOwnPipesEnvironmentAndProcessGroup() throws {
        // /bin/sh runs a fixed script here (argv only, no file names): it echoes its input, its
        // environment variable and whether it leads its own process group.
        let child = try PipedChild.spawn(
            argv: ["/bin/sh", "-c", "read line; echo \"$line $QUIRE_PIPED_TEST\"; ps -o pgid= -p $$"],
            environment: ["QUIRE_PIPED_TEST=yes", "PATH=/usr/bin:/bin"], discardStandardError: true,
            defaultSignals: [SIGPIPE])
        try child.input.writeAll(Array("hello\n".utf8))
        try child.input.close()
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try child.output.read(into: $0) }
            if count == 0 { break }
            output += chunk[..<count]
        }
        try child.output.close()
        var status: Int32 = 0
        #expect(waitpid(child.pid, &status, 0) == child.pid)
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        #expect(lines.first == "hello yes")
        #expect(lines.last.map { $0.trimmingCharacters(in: .whitespaces) } == String(child.pid), "its own process group")
    }

    @Test func aChildThatCannotStartSaysWhichStepFailed() {
        do {
            _ = try PipedChild.spawn(argv: ["/nonexistent/quire-worker"], environment: [],
                                     discardStandardError: true, defaultSignals: [])
            Issue.record("a missing program started")
        } catch {
            #expect(error.step == .spawn)
            #expect(error.errno == .noSuchFileOrDirectory)
        }
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
}
