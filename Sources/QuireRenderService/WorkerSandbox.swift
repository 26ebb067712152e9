#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import QuireSystem

/// How worker processes are confined: bubblewrap when `bwrap` exists and works (no network,
/// only the system and the batch's inputs visible and read-only, a private `/tmp`, new session,
/// fresh PID/IPC/UTS namespaces, dies with its parent), else plain processes with resource
/// limits only.
public struct WorkerSandbox: Sendable, Hashable {
    /// The `bwrap` executable, nil when not sandboxed.
    public let bubblewrap: String?
    /// Why there is no sandbox (when ``bubblewrap`` is nil).
    public let reasonUnavailable: String?

    /// Whether workers run inside bubblewrap.
    public var isActive: Bool { bubblewrap != nil }

    /// A short description for `--verbose` and `--json`.
    public var summary: String {
        if bubblewrap != nil { return "bubblewrap (no network, read-only file system)" }
        return "none, resource limits only (\(reasonUnavailable ?? "disabled"))"
    }

    /// Whether bubblewrap was wanted but is missing or broken (not `--no-sandbox`, not "nothing
    /// to render"): the batch goes on under resource limits and says so.
    public let isDegraded: Bool

    /// The notice shown when degraded, nil otherwise.
    public var degradedNotice: String? {
        guard isDegraded else { return nil }
        return "workers are not sandboxed (\(reasonUnavailable ?? "bubblewrap unavailable")): resource limits only"
    }

    /// No sandbox, with the reason.
    public static func disabled(_ reason: String) -> WorkerSandbox {
        WorkerSandbox(bubblewrap: nil, reasonUnavailable: reason)
    }

    /// Bubblewrap was wanted but cannot be used: workers run under resource limits only.
    static func unavailable(_ reason: String) -> WorkerSandbox {
        WorkerSandbox(bubblewrap: nil, reasonUnavailable: reason, isDegraded: true)
    }

    init(bubblewrap: String?, reasonUnavailable: String?, isDegraded: Bool = false) {
        self.bubblewrap = bubblewrap
        self.reasonUnavailable = reasonUnavailable
        self.isDegraded = isDegraded
    }

    /// Finds `bwrap` (`$QUIRE_BWRAP` when set, else on `PATH`) and checks that it can start a
    /// process here (user namespaces may be disabled, e.g. inside some containers). Anything
    /// missing or broken gives an ``isDegraded`` value: workers then run under rlimits only.
    public static func detect(environment: [String: String] = ProcessInfo.processInfo.environment) -> WorkerSandbox {
        let bwrap: String
        if let override = environment["QUIRE_BWRAP"], !override.isEmpty {
            guard access(override, X_OK) == 0 else {
                return .unavailable("QUIRE_BWRAP=\(override) is not an executable")
            }
            bwrap = override
        } else {
            let searchPath = environment["PATH"] ?? "/usr/bin:/bin"
            guard let found = searchPath.split(separator: ":").map({ String($0) + "/bwrap" })
                .first(where: { access($0, X_OK) == 0 }) else {
                return .unavailable("bwrap is not installed")
            }
            bwrap = found
        }
        guard case .exited(let status)? = ChildProcess.run(arguments(bubblewrap: bwrap, executable: "/bin/true", arguments: []))?.termination else {
            return .unavailable("bwrap could not be started")
        }
        guard status == 0 else {
            return .unavailable("bwrap does not work here (user namespaces unavailable?)")
        }
        return WorkerSandbox(bubblewrap: bwrap, reasonUnavailable: nil)
    }

    /// The full argv (program first) to start `executable arguments…` under this policy, with
    /// read access to `readable` (the batch's inputs) besides the system.
    package func command(executable: String, arguments: [String], readable: [String] = []) -> [String] {
        guard let bubblewrap else { return [executable] + arguments }
        return Self.arguments(bubblewrap: bubblewrap, executable: executable, arguments: arguments,
                              readable: readable)
    }

    /// bubblewrap's arguments: the system read-only (`/usr`, `/etc`, the usr-merged `/bin` and
    /// `/lib` links, the font cache, `/opt` for toolchains), the worker executable's directory
    /// and the inputs read-only, a private `/tmp`, and nothing else — not `$HOME`, not the
    /// thumbnail cache (the parent writes it), no network.
    static func arguments(bubblewrap: String, executable: String, arguments: [String],
                          readable: [String] = []) -> [String] {
        var argv = [bubblewrap, "--ro-bind", "/usr", "/usr"]
        for top in ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] {
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: top) {
                argv += ["--symlink", target, top]
            } else {
                argv += ["--ro-bind-try", top, top]
            }
        }
        argv += ["--ro-bind", "/etc", "/etc",
                 "--ro-bind-try", "/var/cache/fontconfig", "/var/cache/fontconfig",
                 "--ro-bind-try", "/opt", "/opt",
                 "--tmpfs", "/tmp"]      // before the inputs: mounts made later sit on top of it
        // The program is started by its resolved path: a link to it, or a path through a linked
        // directory (`.build/release` → `x86_64-unknown-linux-gnu/release`), is not inside.
        let program = URL(fileURLWithPath: executable).resolvingSymlinksInPath().path
        let programDirectory = URL(fileURLWithPath: program).deletingLastPathComponent().path
        for path in [programDirectory] + Self.minimalRoots(readable)
        where !(path == "/" || ["/usr", "/etc", "/opt"].contains { path == $0 || path.hasPrefix($0 + "/") }) {
            argv += ["--ro-bind-try", path, path]
        }
        argv += ["--dev", "/dev",
                 "--proc", "/proc",
                 "--unshare-all",          // network, IPC, PID, UTS, cgroup, user (where allowed)
                 "--die-with-parent",
                 "--new-session",
                 "--cap-drop", "ALL",
                 "--chdir", "/",
                 // The private /tmp is the worker's temporary directory: a TMPDIR of the user's
                 // (a folder under /run/user, a test run's own) is not inside the sandbox.
                 "--setenv", "TMPDIR", "/tmp",
                 "--", program]
        return argv + arguments
    }

    /// The paths without those already inside another one, sorted.
    package static func minimalRoots(_ paths: [String]) -> [String] {
        var result: [String] = []
        for path in Set(paths).sorted() where !path.isEmpty {
            if result.contains(where: { path == $0 || path.hasPrefix($0 == "/" ? "/" : $0 + "/") }) { continue }
            result.append(path)
        }
        return result
    }
}
