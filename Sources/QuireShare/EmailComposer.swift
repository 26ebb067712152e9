#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireGIO
import QuireSystem
import Synchronization

/// Starts a mail with files attached, by the route ``EmailRoute/find(bus:)`` chose: the
/// portal's `ComposeEmail` with the open descriptors as `attachment_fds`, or `xdg-email
/// --attach PATH…` (argv, never a shell). Nothing is retried: a portal that answers with an
/// error or a user who cancels is reported as such.
package enum EmailComposer {
    /// How long the portal may take to answer (it answers once the mail program is started;
    /// a desktop may ask the user which program first).
    package static let portalTimeoutMilliseconds: Int32 = 120_000
    /// How long `xdg-email` is waited for; a mail program it runs in the foreground keeps
    /// running after that, as started.
    static let programWaitMilliseconds = 10_000

    /// Starts the mail. `to` and `subject` go in as given (nil subject: the files' names); an
    /// address or subject that could not be passed on whole is refused before anything is sent.
    /// Returns what was used ("the desktop portal", "xdg-email").
    @discardableResult
    package static func compose(_ files: ShareFiles, to address: String? = nil, subject: String? = nil,
                               route: EmailRoute, bus: DBusConnection? = nil) throws(ShareError) -> String {
        if let address { try check(address: address) }
        if let subject, subject.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw ShareError(.badArgument, "the subject contains a line break or control character")
        }
        let subject = subject ?? files.defaultSubject
        switch route {
        case .portal:
            guard let bus = bus ?? SessionBus.connect() else { throw ShareError(.unavailable, "no session bus") }
            try composeThroughPortal(files, to: address, subject: subject, bus: bus)
            return "the desktop portal"
        case .xdgEmail(let program):
            try composeWithProgram(program, files, to: address, subject: subject)
            return "xdg-email"
        case .unavailable(let reason):
            throw ShareError(.unavailable, "cannot send mail: \(reason)")
        }
    }

    /// An address is one word with an `@`, not starting with `-` (xdg-email would take it as
    /// an option) and without spaces or control characters.
    static func check(address: String) throws(ShareError) {
        guard !address.hasPrefix("-"), address.contains("@"),
              !address.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) else {
            throw ShareError(.badArgument, "\(address.debugDescription) is not a mail address")
        }
    }

    private static let counter = Counter()

    static func composeThroughPortal(_ files: ShareFiles, to address: String?, subject: String, bus: DBusConnection) throws(ShareError) {
        let token = "quire\(getpid())_\(counter.next())"
        let sender = String(bus.uniqueName.dropFirst().map { $0 == "." ? "_" : $0 })
        let expected = "\(EmailRoute.portalPath)/request/\(sender)/\(token)"
        var options: [String: DBusValue] = [
            "handle_token": .string(token),
            "subject": .string(subject),
            "attachment_fds": .handles(files.files.indices.map { Int32($0) }),
        ]
        if let address { options["addresses"] = .strings([address]) }
        let response: DBusArguments?
        do {
            response = try bus.awaitSignal(sender: EmailRoute.portalName, interface: "org.freedesktop.portal.Request",
                                           member: "Response", timeout: portalTimeoutMilliseconds) { () throws(GIOError) -> String in
                let reply = try bus.call(destination: EmailRoute.portalName, path: EmailRoute.portalPath,
                                         interface: EmailRoute.emailInterface, method: "ComposeEmail",
                                         [.string(""), .dictionary(options)],
                                         fileDescriptors: files.files.map(\.descriptor.rawValue), timeout: 30_000)
                let handle = reply.string(0)
                return handle.isEmpty ? expected : handle
            }
        } catch {
            throw ShareError(.failed, "the mail portal refused: \(error.remoteDetail ?? error.message)", underlying: error)
        }
        guard let response else {
            throw ShareError(.failed, "the mail portal did not answer within \(portalTimeoutMilliseconds / 1000) s")
        }
        switch response.uint32(0) {
        case 0: return
        case 1: throw ShareError(.cancelled, "the mail was cancelled")
        default: throw ShareError(.failed, "the mail portal could not start a mail")
        }
    }

    static func composeWithProgram(_ program: String, _ files: ShareFiles, to address: String?, subject: String) throws(ShareError) {
        var argv = [program, "--utf8", "--subject", subject]
        // Absolute paths: a name starting with "-" is never read as an option.
        for file in files.files { argv += ["--attach", file.absoluteString] }
        if let address { argv.append(address) }
        let environment = currentEnvironment()
        let child: ChildProcess
        let input: FileDescriptor, output: FileDescriptor
        do {
            child = try ChildProcess.spawn(argv, ChildProcess.Options(
                environment: environment, standardInput: .pipe, standardOutput: .pipe, standardError: .null,
                ownProcessGroup: true, defaultSignals: [SIGPIPE, SIGINT, SIGTERM]))
            (input, output) = (child.input!, child.output!)
        } catch {
            throw ShareError(.failed, "cannot start xdg-email: \(error.errno)", errno: error.errno)
        }
        try? input.close()
        _ = fcntl(output.rawValue, F_SETFL, O_NONBLOCK)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var waited = 0
        while true {
            _ = buffer.withUnsafeMutableBytes { try? output.read(into: $0) }
            var status: Int32 = 0
            let reaped = waitpid(child.pid, &status, WNOHANG)
            if reaped == child.pid {
                try? output.close()
                switch ChildProcess.Termination(waitStatus: status) {
                case .exited(0): return
                case .exited(let code): throw ShareError(.failed, "xdg-email failed: \(Self.xdgEmailReason(code))")
                case .signalled: throw ShareError(.failed, "xdg-email was killed")
                }
            }
            if waited >= programWaitMilliseconds {
                // A mail program kept in the foreground: started. Its output is drained until it
                // ends (a closed pipe would kill it on its first write) and it is reaped then.
                let pid = child.pid
                _ = fcntl(output.rawValue, F_SETFL, 0)
                JoinableThread.detach(stackSize: 64 << 10) {
                    var drain = [UInt8](repeating: 0, count: 4096)
                    while (drain.withUnsafeMutableBytes { (try? output.read(into: $0)) ?? 0 }) > 0 {}
                    try? output.close()
                    var status: Int32 = 0
                    _ = waitpid(pid, &status, 0)
                }
                return
            }
            usleep(20_000)
            waited += 20
        }
    }

    /// xdg-utils' exit statuses.
    static func xdgEmailReason(_ code: Int32) -> String {
        switch code {
        case 1: return "it did not understand its command line (exit 1)"
        case 2: return "a file to attach does not exist (exit 2)"
        case 3: return "no mail program was found (exit 3)"
        case 4: return "the mail program failed (exit 4)"
        case 5: return "a file cannot be read (exit 5)"
        default: return "exit \(code)"
        }
    }

    static func currentEnvironment() -> [String] {
        var values: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            values.append(String(cString: entry))
            pointer += 1
        }
        return values
    }
}

/// Request tokens unique within the process.
private final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func next() -> Int { value.add(1, ordering: .relaxed).newValue }
}
