import QuireRenderService
/// What a batch run does.
public struct BatchOptions: Sendable {
    /// Flavors to produce (at least one).
    public var flavors: [ThumbnailFlavor]
    /// Descend into directories.
    public var recursive: Bool
    /// Number of worker processes.
    public var jobs: Int
    /// Regenerate even current thumbnails and retry known failures.
    public var force: Bool
    /// Per-file wall-clock limit in seconds, enforced by the parent.
    public var timeout: Double
    /// Larger files are skipped.
    public var maximumFileSize: Int64
    /// Include files and directories whose names start with a dot.
    public var includeHidden: Bool
    /// Only this share of the files.
    public var shard: ShardSpec?
    /// Plan and report, write nothing.
    public var dryRun: Bool
    /// Worker limits.
    public var limits: WorkerLimits
    /// Use bubblewrap when available.
    public var useSandbox: Bool

    public init(flavors: [ThumbnailFlavor] = [.normal], recursive: Bool = false, jobs: Int = 2, force: Bool = false,
                timeout: Double = 15, maximumFileSize: Int64 = 1 << 30, includeHidden: Bool = false,
                shard: ShardSpec? = nil, dryRun: Bool = false, limits: WorkerLimits = .init(),
                useSandbox: Bool = true) {
        self.flavors = flavors
        self.recursive = recursive
        self.jobs = jobs
        self.force = force
        self.timeout = timeout
        self.maximumFileSize = maximumFileSize
        self.includeHidden = includeHidden
        self.shard = shard
        self.dryRun = dryRun
        self.limits = limits
        self.useSandbox = useSandbox
    }
}
