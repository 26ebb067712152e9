#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs a program to completion with standard input, output and error on `/dev/null` (a probe,
/// such as whether bubblewrap works here). `posix_spawn`, no shell.
enum QuietCommand {
    /// The exit status, or nil if the program could not be started or ended on a signal.
    static func run(_ arguments: [String]) -> Int32? {
        guard !arguments.isEmpty else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, arguments[0], &actions, nil, &cArguments, environ)
        guard status == 0 else { return nil }
        var waitStatus: Int32 = 0
        while waitpid(child, &waitStatus, 0) < 0 {
            if errno != EINTR { return nil }
        }
        // WIFEXITED / WEXITSTATUS (macros Swift does not import).
        guard waitStatus & 0x7F == 0 else { return nil }
        return (waitStatus >> 8) & 0xFF
    }
}
