#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Quire
import QuireSystem

/// Renders pages in a separate, long-lived process, so that a renderer that crashes or hangs on
/// a hostile page costs that page, not the viewer (poppler cannot be cancelled in-process).
///
/// The process is `argv` (e.g. `quire __look-render-worker`, which runs
/// ``PageRenderServer/serve(input:output:limits:)``), started on first use in its own process
/// group with pipes on its standard input and output. A render that takes longer than
/// `timeout` seconds kills it; a dead process is started again for the next page.
public final class PageRenderProcess {
    public let argv: [String]
    public let timeout: Double
    private var pid: pid_t = 0
    private var requestFD: Int32 = -1
    private var responseFD: Int32 = -1
    private var buffer: [UInt8] = []

    public init(argv: [String], timeout: Double) {
        precondition(!argv.isEmpty)
        self.argv = argv
        self.timeout = timeout
    }

    deinit { stop() }

    /// The page at exactly `width`×`height` pixels.
    /// - Throws: ``ViewerProblem`` (`damaged`, `unsupported`, `limitExceeded`, … from the
    ///   renderer, or `damaged` when the renderer crashed or took too long).
    func render(path: DocumentPath, password: String?, page: Int, width: Int, height: Int) throws(ViewerProblem) -> RenderedImage {
        if pid == 0 { try start() }
        let request = "render \(page) \(width) \(height) \(PageRenderServer.hex(password.map { Array($0.utf8) })) \(PageRenderServer.hex(path.bytes))\n"
        guard write(Array(request.utf8)) else {
            // The process died while idle: start a fresh one and ask once more.
            stop()
            try start()
            guard write(Array(request.utf8)) else { throw failure("the renderer could not be started") }
            return try readAnswer(page: page)
        }
        return try readAnswer(page: page)
    }

    private func readAnswer(page: Int) throws(ViewerProblem) -> RenderedImage {
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        func remaining() -> Int32 {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let elapsed = Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9
            return Int32(max(0, (timeout - elapsed) * 1000))
        }
        guard let line = readLine(remaining) else { throw died(page: page, timedOut: remaining() == 0) }
        let fields = line.split(separator: " ", omittingEmptySubsequences: false)
        if fields.first == "ok", fields.count == 3, let width = Int(fields[1]), let height = Int(fields[2]),
           width > 0, height > 0, width * height <= 1 << 28 {
            guard let pixels = readBytes(width * height * 4, remaining) else { throw died(page: page, timedOut: remaining() == 0) }
            return RenderedImage(width: width, height: height, pixels: pixels)
        }
        if fields.first == "error", fields.count == 3 {
            let kind = ViewerProblem.Kind(rawValue: String(fields[1])) ?? .damaged
            let message = String(decoding: PageRenderServer.unhex(fields[2]) ?? [], as: UTF8.self)
            throw ViewerProblem(kind: kind, message: message)
        }
        stop()
        throw failure("the renderer answered something unexpected")
    }

    /// Why the process stopped answering (and it is stopped for good; the next page starts another).
    private func died(page: Int, timedOut: Bool) -> ViewerProblem {
        var status: Int32 = 0
        var reason = "took longer than \(Int(timeout)) s"
        if pid != 0 {
            // End of output comes with the process's exit: give the kernel a moment to make it
            // a zombie (at most 200 ms), so the reason can be told.
            var exited = waitpid(pid, &status, WNOHANG) == pid
            for _ in 0..<20 where !exited && !timedOut {
                usleep(10_000)
                exited = waitpid(pid, &status, WNOHANG) == pid
            }
            if exited {
                pid = 0
                if status & 0x7F != 0 {
                    reason = "crashed (signal \(status & 0x7F))"
                } else {
                    reason = "stopped (status \((status >> 8) & 0xFF))"
                }
            }
        }
        stop()
        return ViewerProblem(kind: .damaged, message: "the renderer \(reason) on page \(page + 1)")
    }

    private func failure(_ message: String) -> ViewerProblem { ViewerProblem(kind: .damaged, message: message) }

    private func start() throws(ViewerProblem) {
        // The same environment, minus the Swift runtime's crash backtracer: a renderer that
        // faults should die at once (and take no second process along to print a backtrace).
        var environment: [String] = []
        var entry = environ
        while let variable = entry.pointee {
            let text = String(cString: variable)
            if !text.hasPrefix("SWIFT_BACKTRACE=") { environment.append(text) }
            entry += 1
        }
        environment.append("SWIFT_BACKTRACE=enable=no")
        let child: PipedChild
        do {
            // The terminal belongs to the viewer: a crashing renderer's messages must not be
            // drawn over it, so its standard error is discarded.
            child = try PipedChild.spawn(
                argv: argv, environment: environment, discardStandardError: true,
                defaultSignals: [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGWINCH])
        } catch {
            switch error.step {
            case .pipe: throw failure("cannot start the renderer: \(error.errno)")
            case .spawn: throw failure("cannot start the renderer \(argv[0]): \(error.errno)")
            }
        }
        pid = child.pid
        requestFD = child.input.rawValue
        responseFD = child.output.rawValue
        buffer = []
    }

    /// Kills and reaps the process (if any) and closes the pipes.
    public func stop() {
        if requestFD >= 0 { close(requestFD); requestFD = -1 }
        if responseFD >= 0 { close(responseFD); responseFD = -1 }
        if pid != 0 {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = retryingOnInterrupt { waitpid(pid, &status, 0) }
            pid = 0
        }
        buffer = []
    }

    private func write(_ bytes: [UInt8]) -> Bool {
        (try? FileDescriptor(rawValue: requestFD).writeAll(bytes)) != nil
    }

    /// Reads more into the buffer, waiting at most `milliseconds`; false on timeout or EOF.
    private func fill(_ milliseconds: Int32) -> Bool {
        var fd = pollfd(fd: responseFD, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&fd, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return false }
            break
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        guard let count = chunk.withUnsafeMutableBytes({ try? FileDescriptor(rawValue: responseFD).read(into: $0) }), count > 0 else {
            return false
        }
        buffer += chunk[..<count]
        return true
    }

    private func readLine(_ remaining: () -> Int32) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            guard buffer.count < 1 << 16, fill(remaining()) else { return nil }
        }
    }

    private func readBytes(_ count: Int, _ remaining: () -> Int32) -> [UInt8]? {
        while buffer.count < count {
            guard fill(remaining()) else { return nil }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeSubrange(..<count)
        return bytes
    }
}
