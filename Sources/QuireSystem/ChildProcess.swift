#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one way Quire starts another program: the render and batch workers, the viewer's
/// renderer, `xdg-email`, bubblewrap probes, the dynamic loader's library listing, and the
/// window viewer that replaces `quire`. The program gets its argument vector as given (program
/// path first); nothing goes through a shell. The C functions are `posix_spawn(3)` and
/// `execv(3)`.
package struct ChildProcess {
    package let pid: pid_t
    /// The child's standard input (write end) when ``Options/standardInput`` is `.pipe`; the
    /// caller closes it.
    package let input: FileDescriptor?
    /// The child's standard output (read end) when ``Options/standardOutput`` is `.pipe`; the
    /// caller closes it.
    package let output: FileDescriptor?

    /// Where one of the child's standard streams goes.
    package enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe to or from this process (``input`` / ``output``).
        case pipe
        /// The same descriptor as this process's.
        case inherit
    }

    /// How the child is started.
    package struct Options: Sendable {
        /// `NAME=value` entries; nil passes this process's environment on.
        package var environment: [String]?
        package var standardInput: Stream
        package var standardOutput: Stream
        package var standardError: Stream
        /// A process group of its own, so that a terminal's Ctrl-C reaches only this process.
        package var ownProcessGroup: Bool
        /// Signals set back to their default action in the child; its signal mask is emptied too
        /// (a thread of Swift's pool blocks every asynchronous signal, and the mask is inherited).
        package var defaultSignals: [Int32]

        package init(environment: [String]? = nil, standardInput: Stream = .null, standardOutput: Stream = .null,
                     standardError: Stream = .null, ownProcessGroup: Bool = false, defaultSignals: [Int32] = []) {
            self.environment = environment
            self.standardInput = standardInput
            self.standardOutput = standardOutput
            self.standardError = standardError
            self.ownProcessGroup = ownProcessGroup
            self.defaultSignals = defaultSignals
        }
    }

    /// Why a child could not be started.
    package struct Failure: Error {
        package enum Step: Sendable { case pipe, spawn }
        package let step: Step
        package let errno: Errno
    }

    /// How a child ended.
    package enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)

        /// Decodes a `waitpid` status (`WIFEXITED`, `WEXITSTATUS`, `WTERMSIG`: macros Swift does
        /// not import).
        package init(waitStatus: Int32) {
            self = waitStatus & 0x7F == 0 ? .exited((waitStatus >> 8) & 0xFF) : .signalled(waitStatus & 0x7F)
        }
    }

    /// Starts `argv` (program path first).
    package static func spawn(_ argv: [String], _ options: Options) throws(Failure) -> ChildProcess {
        try spawn(argv.map { Array($0.utf8) }, options)
    }

    /// Starts `argv` given as bytes (file names stay bytes from the command line to `exec`).
    package static func spawn(_ argv: [[UInt8]], _ options: Options) throws(Failure) -> ChildProcess {
        precondition(!argv.isEmpty, "a child process needs a program")
        var toChild: (readEnd: FileDescriptor, writeEnd: FileDescriptor)?
        var fromChild: (readEnd: FileDescriptor, writeEnd: FileDescriptor)?
        func closeAll() {
            try? toChild?.readEnd.close(); try? toChild?.writeEnd.close()
            try? fromChild?.readEnd.close(); try? fromChild?.writeEnd.close()
        }
        do {
            if options.standardInput == .pipe { toChild = try FileDescriptor.pipe() }
            if options.standardOutput == .pipe { fromChild = try FileDescriptor.pipe() }
        } catch {
            closeAll()
            throw Failure(step: .pipe, errno: error)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Pipes are close-on-exec: dup2 gives the child clean copies on 0 and 1.
        for (descriptor, stream) in [(Int32(0), options.standardInput), (1, options.standardOutput), (2, options.standardError)] {
            switch stream {
            case .inherit: break
            case .null: posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
            case .pipe:
                if descriptor == 0, let toChild { posix_spawn_file_actions_adddup2(&actions, toChild.readEnd.rawValue, 0) }
                if descriptor == 1, let fromChild { posix_spawn_file_actions_adddup2(&actions, fromChild.writeEnd.rawValue, 1) }
                if descriptor == 2 { preconditionFailure("standard error goes to /dev/null or is inherited") }
            }
        }
        InheritedDescriptors.closeAboveStandard(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in options.defaultSignals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        if options.ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let cArguments = argv.map(Self.cString) + [nil]
        let cEnvironment = options.environment.map { $0.map { strdup($0) } + [nil] }
        defer {
            cArguments.forEach { $0?.deallocate() }
            cEnvironment?.forEach { free($0) }
        }
        var child: pid_t = 0
        let status: Int32 = if let cEnvironment {
            posix_spawn(&child, cArguments[0]!, &actions, &attributes, cArguments, cEnvironment)
        } else {
            posix_spawn(&child, cArguments[0]!, &actions, &attributes, cArguments, environ)
        }
        try? toChild?.readEnd.close()
        try? fromChild?.writeEnd.close()
        guard status == 0 else {
            try? toChild?.writeEnd.close(); try? fromChild?.readEnd.close()
            throw Failure(step: .spawn, errno: Errno(rawValue: status))
        }
        return ChildProcess(pid: child, input: toChild?.writeEnd, output: fromChild?.readEnd)
    }

    /// Waits for the child to end (`waitpid(2)`, retried on `EINTR`); nil if it cannot be
    /// waited for (already reaped).
    package func wait() -> Termination? {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return nil }
        }
        return Termination(waitStatus: status)
    }

    /// Runs `argv` to its end with standard input and error on `/dev/null` and returns how it
    /// ended and what it wrote to standard output (when `captureOutput`; else that goes to
    /// `/dev/null` too). nil when it could not be started.
    package static func run(_ argv: [String], environment: [String]? = nil, captureOutput: Bool = false)
        -> (termination: Termination, output: [UInt8])? {
        guard !argv.isEmpty, let child = try? spawn(argv, Options(environment: environment,
                                                                  standardOutput: captureOutput ? .pipe : .null)) else {
            return nil
        }
        var output: [UInt8] = []
        if let pipe = child.output {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while let count = (buffer.withUnsafeMutableBytes { try? pipe.read(into: $0) }), count > 0 {
                output += buffer[0..<count]
            }
            try? pipe.close()
        }
        guard let termination = child.wait() else { return nil }
        return (termination, output)
    }

    /// Replaces this process with `argv` (program path first), with this process's environment
    /// and an empty signal mask. Returns only when that failed, with the reason.
    package static func replaceCurrentProcess(_ argv: [[UInt8]]) -> Errno {
        precondition(!argv.isEmpty, "a program is needed")
        // A thread of Swift's pool blocks every asynchronous signal, and exec keeps the mask.
        var empty = sigset_t()
        sigemptyset(&empty)
        var saved = sigset_t()
        pthread_sigmask(SIG_SETMASK, &empty, &saved)
        let cArguments = argv.map(Self.cString) + [nil]
        defer { cArguments.forEach { $0?.deallocate() } }
        execv(cArguments[0]!, cArguments)
        let failure = Errno.current
        pthread_sigmask(SIG_SETMASK, &saved, nil)
        return failure
    }

    private static func cString(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar>? {
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
        pointer[bytes.count] = 0
        return pointer
    }
}
