#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import QuireTypes
import QuireSystem

/// The loop run inside a worker process (`quire` started with its hidden worker subcommand):
/// read a request frame from standard input, render, write a response frame to standard
/// output, until standard input ends.
///
/// Limits: `RLIMIT_AS` caps memory; the CPU limit is per file (the soft `RLIMIT_CPU` is moved
/// forward before each file), so a runaway file gets `SIGXCPU` even if the parent's wall-clock
/// timeout were missed. The worker dies with its parent (`PR_SET_PDEATHSIG`).
public struct ThumbnailWorker: Sendable {
    /// Limits applied to the worker process.
    public struct Limits: Sendable {
        /// Address-space limit in bytes (0 = none).
        public var memoryBytes: UInt64
        /// CPU seconds allowed per file (0 = none).
        public var cpuSecondsPerFile: Int

        public init(memoryBytes: UInt64 = 2 << 30, cpuSecondsPerFile: Int = 30) {
            self.memoryBytes = memoryBytes
            self.cpuSecondsPerFile = cpuSecondsPerFile
        }
    }

    let renderer: any ThumbnailRendering
    let limits: Limits
    let environment: [String: String]

    public init(renderer: any ThumbnailRendering, limits: Limits,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.renderer = renderer
        self.limits = limits
        self.environment = environment
    }

    /// Serves requests on `input` until it is closed; returns the exit status for the process.
    public func run(input: FileDescriptor = .standardInput, output: FileDescriptor = .standardOutput) -> Int32 {
        try? ProcessControl.setParentDeathSignal(SIGKILL)
        signal(SIGINT, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        if limits.memoryBytes > 0 && !Self.isAddressSanitized {
            var limit = rlimit(rlim_cur: rlim_t(limits.memoryBytes), rlim_max: rlim_t(limits.memoryBytes))
            _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
        }
        let crashOn = environment["QUIRE_TEST_WORKER_CRASH_ON"].map { Array($0.utf8) }
        let hangOn = environment["QUIRE_TEST_WORKER_HANG_ON"].map { Array($0.utf8) }
        // Handshake: the parent waits for this before sending files, so a worker that cannot
        // start (missing binary, broken sandbox) is not mistaken for a file that crashes it.
        if environment["QUIRE_TEST_WORKER_FAIL_START"] != nil { return 3 }
        guard WireIO.writeAll(output, WorkerHandshake.frame) else { return 1 }
        while let payload = WireIO.readFrame(input) {
            guard let request = try? WorkerRequest(payload: payload) else { return 2 }
            let name = DocumentPath(bytes: request.path).lastComponentBytes
            if let crashOn, name == crashOn { abort() }
            if let hangOn, name == hangOn { while true { sleep(60) } }
            if let probe = SandboxProbe(environment: environment) {
                guard WireIO.writeAll(output, probe.run().frame) else { return 1 }
                continue
            }
            armCPULimit()
            let response = handle(request)
            guard WireIO.writeAll(output, response.frame) else { return 1 }
        }
        return 0
    }

    /// Whether this process was built with AddressSanitizer (`make asan`): its shadow memory
    /// reserves terabytes of address space, so `RLIMIT_AS` would stop the worker from starting.
    /// The CPU limit and the parent's wall-clock timeout still apply.
    static let isAddressSanitized: Bool = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil

    /// Moves the soft CPU limit to "CPU used so far + the per-file allowance".
    private func armCPULimit() {
        guard limits.cpuSecondsPerFile > 0 else { return }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let used = Int(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + 1
        let soft = rlim_t(used + limits.cpuSecondsPerFile)
        var limit = rlimit(rlim_cur: soft, rlim_max: rlim_t.max)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &limit)
    }

    func handle(_ request: WorkerRequest) -> WorkerResponse {
        let path = DocumentPath(bytes: request.path)
        let file: InputFile
        do {
            file = try InputFile(path: path, maximumSize: request.maximumFileSize)
        } catch {
            return .failed(ThumbnailFailure(error), modificationTime: -1, size: -1)
        }
        let mtime = file.modificationTime.seconds
        let type: ContentType
        do { type = try ContentType.detect(file) } catch {
            return .failed(ThumbnailFailure(error), modificationTime: mtime, size: file.size)
        }
        do {
            let rendered = try renderer.renderThumbnails(of: file, type: type, sizes: request.sizes)
            let metadata = ThumbnailMetadata(uri: request.uri, modificationTime: mtime, size: file.size,
                                             mimeType: type.mimeType, software: QuireThumbnailsInfo.software,
                                             imageWidth: rendered.imageWidth, imageHeight: rendered.imageHeight,
                                             pageCount: rendered.pageCount)
            var out: [Int: [UInt8]] = [:]
            for (edge, png) in rendered.pngBySize {
                guard let tagged = PNGChunks.inserting(text: metadata.textEntries, into: png) else {
                    return .failed(ThumbnailFailure(.encoding, "the renderer produced an invalid PNG"),
                                   modificationTime: mtime, size: file.size)
                }
                out[edge] = tagged
            }
            return .rendered(modificationTime: mtime, size: file.size, mimeType: type.mimeType, pngBySize: out)
        } catch let failure as ThumbnailFailure {
            return .failed(failure, modificationTime: mtime, size: file.size)
        } catch {
            return .failed(ThumbnailFailure(.render, String(describing: error)), modificationTime: mtime, size: file.size)
        }
    }
}
