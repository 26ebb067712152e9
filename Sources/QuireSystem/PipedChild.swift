#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A child process with pipes on its standard input and output, in its own process group (so a
/// terminal's Ctrl-C reaches only the parent), with an empty signal mask and the given signals
/// back at their default action. Used for every long-lived helper process Quire starts: batch
/// thumbnail workers and the viewer's page renderer. The corresponding C function is
/// `posix_spawn(3)`; nothing goes through a shell.
package struct PipedChild {
    package let pid: pid_t
    /// The child's standard input (write end); the caller closes it.
    package let input: FileDescriptor
    /// The child's standard output (read end); the caller closes it.
    package let output: FileDescriptor

    /// Why a child could not be started.
    package struct Failure: Error {
        package enum Step: Sendable { case pipe, spawn }
        package let step: Step
        package let errno: Errno
    }

    /// Starts `argv` (program path first) with `environment` (`NAME=value` entries).
    /// - Parameters:
    ///   - discardStandardError: the child's standard error goes to /dev/null instead of the
    ///     parent's (a viewer's terminal must not be drawn over by a crashing child).
    ///   - defaultSignals: signals reset to their default action in the child.
    package static func spawn(argv: [String], environment: [String], discardStandardError: Bool,
                              defaultSignals: [Int32]) throws(Failure) -> PipedChild {
        let toChild: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        let fromChild: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do { toChild = try FileDescriptor.pipe() } catch { throw Failure(step: .pipe, errno: error) }
        do { fromChild = try FileDescriptor.pipe() } catch {
            try? toChild.readEnd.close(); try? toChild.writeEnd.close()
            throw Failure(step: .pipe, errno: error)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Both pipes are close-on-exec: dup2 gives the child clean copies on 0 and 1.
        posix_spawn_file_actions_adddup2(&actions, toChild.readEnd.rawValue, 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild.writeEnd.rawValue, 1)
        if discardStandardError { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in defaultSignals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        let cEnv: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer {
            cArgs.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, argv[0], &actions, &attributes, cArgs, cEnv)
        try? toChild.readEnd.close()
        try? fromChild.writeEnd.close()
        guard status == 0 else {
            try? toChild.writeEnd.close(); try? fromChild.readEnd.close()
            throw Failure(step: .spawn, errno: Errno(rawValue: status))
        }
        return PipedChild(pid: child, input: toChild.writeEnd, output: fromChild.readEnd)
    }
}
