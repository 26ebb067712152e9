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
        try send(path: path, password: password, page: page, width: width, height: height)
        return try readAnswer(page: page)
    }

    /// Writes the request, starting the process when it is not running.
    private func send(path: DocumentPath, password: String?, page: Int, width: Int, height: Int) throws(ViewerProblem) {
        if pid == 0 { try start() }
        let request = "render \(page) \(width) \(height) \(PageRenderServer.hex(password.map { Array($0.utf8) })) \(PageRenderServer.hex(path.bytes))\n"
        guard write(Array(request.utf8)) else {
            // The process died while idle: start a fresh one and ask once more.
            stop()
            try start()
            guard write(Array(request.utf8)) else { throw failure("the renderer could not be started") }
            return
        }
    }

    /// The page as ``PagePixels``: the answer is read straight into the page's own memory and
    /// converted there (no read buffer or RGBA copy of the page is kept on the way).
    func renderPixels(path: DocumentPath, password: String?, page: Int, width: Int, height: Int) throws(ViewerProblem) -> PagePixels {
        try send(path: path, password: password, page: page, width: width, height: height)
        return try readPixelsAnswer(page: page)
    }

    private func readPixelsAnswer(page: Int) throws(ViewerProblem) -> PagePixels {
        let deadline = Deadline(seconds: timeout)
        let (width, height) = try readHeader(page: page, deadline)
        guard let pixels = PagePixels(width: width, height: height) else {
            stop()
            throw failure("no memory for page \(page + 1) at \(width)×\(height)")
        }
        guard readBytes(into: pixels.base, count: pixels.byteCount, deadline.remaining) else {
            throw died(page: page, timedOut: deadline.remaining() == 0)
        }
        PagePixels.premultiplyInPlace(pixels.base, count: width * height)
        return pixels
    }

    /// Fills `count` bytes at `destination`: first what is already buffered, then straight
    /// from the pipe.
    private func readBytes(into destination: UnsafeMutableRawPointer, count: Int, _ remaining: () -> Int32) -> Bool {
        let buffered = min(buffer.count, count)
        if buffered > 0 {
            buffer.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress!, byteCount: buffered) }
            buffer.removeSubrange(..<buffered)
        }
        var filled = buffered
        while filled < count {
            var fd = pollfd(fd: responseFD, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fd, 1, remaining())
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return false }
            let got = read(responseFD, destination + filled, count - filled)
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return false }
            filled += got
        }
        return true
    }

    private func readAnswer(page: Int) throws(ViewerProblem) -> RenderedImage {
        let deadline = Deadline(seconds: timeout)
        let (width, height) = try readHeader(page: page, deadline)
        guard let pixels = readBytes(width * height * 4, deadline.remaining) else {
            throw died(page: page, timedOut: deadline.remaining() == 0)
        }
        return RenderedImage(width: width, height: height, pixels: pixels)
    }

    /// When the answer must have come by (the timeout, from when it was asked for).
    private struct Deadline {
        let start: timespec
        let seconds: Double

        init(seconds: Double) {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            start = now
            self.seconds = seconds
        }

        /// Milliseconds left (0 when it has passed).
        func remaining() -> Int32 {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let elapsed = Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9
            return Int32(max(0, (seconds - elapsed) * 1000))
        }
    }

    /// The answer's first line: the page's size when it is `ok`; the renderer's problem, or a
    /// crash, hang or garbage, thrown.
    private func readHeader(page: Int, _ deadline: Deadline) throws(ViewerProblem) -> (width: Int, height: Int) {
        guard let line = readLine(deadline.remaining) else { throw died(page: page, timedOut: deadline.remaining() == 0) }
        let fields = line.split(separator: " ", omittingEmptySubsequences: false)
        if fields.first == "ok", fields.count == 3, let width = Int(fields[1]), let height = Int(fields[2]),
           width > 0, height > 0, width * height <= 1 << 28 {
            return (width, height)
        }
        if fields.first == "error", fields.count == 3 {
            let kind = ViewerProblem.Kind(rawValue: String(fields[1])) ?? .damaged
            let message = String(decoding: PageRenderServer.unhex(fields[2]) ?? [], as: UTF8.self)
            throw ViewerProblem(kind: kind, message: message)
        }
        stop()
        throw failure("the renderer answered something unexpected")
    }

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
