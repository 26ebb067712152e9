import QuireThumbnails

/// Turns `--shard` into a ``ShardSpec``: an explicit `K/N`, or `auto`, which reads the array
/// index and size from the engine running the task — a **Slurm** job array
/// (`SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_MIN`, `SLURM_ARRAY_TASK_COUNT`, and
/// `SLURM_ARRAY_TASK_STEP` for `--array=0-30:10`) or a **Kubernetes Indexed Job**
/// (`JOB_COMPLETION_INDEX`, with the count from `--shard-count` or `QUIRE_SHARD_COUNT`, since
/// Kubernetes does not pass `.spec.completions` to the pod). Part of the CLI: its messages are
/// about the command's own options.
enum ShardResolver {
    /// Where the shard came from.
    enum Source: String, Sendable {
        case explicit
        case slurm
        case kubernetes
    }

    /// A resolved shard and a one-line account of how it was found.
    struct Resolved: Sendable {
        let spec: ShardSpec
        let source: Source
        /// E.g. `shard 2/4 from Slurm (SLURM_ARRAY_TASK_ID=5, SLURM_ARRAY_TASK_MIN=4, SLURM_ARRAY_TASK_COUNT=4)`.
        let description: String
    }

    /// A usage error, one line.
    struct Failure: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    /// The environment variable that gives the count of a Kubernetes Indexed Job.
    static let countVariable = "QUIRE_SHARD_COUNT"

    /// - Parameters:
    ///   - text: the `--shard` value (nil: no sharding).
    ///   - count: `--shard-count` (only with `auto`).
    static func resolve(_ text: String?, count: Int?, environment: [String: String]) throws(Failure) -> Resolved? {
        guard let text else {
            if count != nil { throw Failure(description: "--shard-count needs --shard auto.") }
            return nil
        }
        guard text == "auto" else {
            if count != nil { throw Failure(description: "--shard-count goes with --shard auto, not --shard \(text).") }
            guard let spec = ShardSpec(text) else {
                throw Failure(description: "--shard must be K/N with 1 ≤ K ≤ N (e.g. 2/4), or auto (Slurm array or Kubernetes Indexed Job).")
            }
            return Resolved(spec: spec, source: .explicit, description: "shard \(spec)")
        }
        if let count, count < 1 { throw Failure(description: "--shard-count must be at least 1.") }
        let slurm = environment["SLURM_ARRAY_TASK_ID"]
        let kubernetes = environment["JOB_COMPLETION_INDEX"]
        if slurm != nil && kubernetes != nil {
            throw Failure(description: "--shard auto: both SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are set; give --shard K/N.")
        }
        if let slurm { return try fromSlurm(id: slurm, count: count, environment: environment) }
        if let kubernetes { return try fromKubernetes(index: kubernetes, count: count, environment: environment) }
        throw Failure(description: "--shard auto: not in a Slurm array job (SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX); give --shard K/N.")
    }

    private static func integer(_ name: String, _ environment: [String: String], minimum: Int = 0) throws(Failure) -> Int {
        guard let text = environment[name] else { throw Failure(description: "--shard auto: \(name) is not set.") }
        guard let value = Int(text), value >= minimum else {
            throw Failure(description: "--shard auto: \(name)=\(text) is not an integer of at least \(minimum).")
        }
        return value
    }

    private static func fromSlurm(id: String, count: Int?, environment: [String: String]) throws(Failure) -> Resolved {
        let task = try integer("SLURM_ARRAY_TASK_ID", environment)
        let minimum = try integer("SLURM_ARRAY_TASK_MIN", environment)
        let tasks = try integer("SLURM_ARRAY_TASK_COUNT", environment, minimum: 1)
        let step = environment["SLURM_ARRAY_TASK_STEP"] == nil ? 1 : try integer("SLURM_ARRAY_TASK_STEP", environment, minimum: 1)
        if let count, count != tasks {
            throw Failure(description: "--shard auto: --shard-count \(count) differs from SLURM_ARRAY_TASK_COUNT=\(tasks).")
        }
        let offset = task - minimum
        guard offset >= 0, offset % step == 0, offset / step < tasks else {
            throw Failure(description: "--shard auto: SLURM_ARRAY_TASK_ID=\(task) is not one of \(tasks) evenly spaced tasks from \(minimum) (a sparse --array list?); use --array=0-\(tasks - 1) or give --shard K/N.")
        }
        let spec = ShardSpec(index: offset / step + 1, count: tasks)!
        var detail = "SLURM_ARRAY_TASK_ID=\(task), SLURM_ARRAY_TASK_MIN=\(minimum), SLURM_ARRAY_TASK_COUNT=\(tasks)"
        if step != 1 { detail += ", SLURM_ARRAY_TASK_STEP=\(step)" }
        return Resolved(spec: spec, source: .slurm, description: "shard \(spec) from Slurm (\(detail))")
    }

    private static func fromKubernetes(index: String, count: Int?, environment: [String: String]) throws(Failure) -> Resolved {
        let position = try integer("JOB_COMPLETION_INDEX", environment)
        let total: Int
        let origin: String
        if let count {
            total = count
            origin = "--shard-count \(count)"
        } else if environment[countVariable] != nil {
            total = try integer(countVariable, environment, minimum: 1)
            origin = "\(countVariable)=\(total)"
        } else {
            throw Failure(description: "--shard auto: a Kubernetes Indexed Job (JOB_COMPLETION_INDEX=\(position)) needs the number of completions: give --shard-count N or set \(countVariable).")
        }
        guard position < total, let spec = ShardSpec(index: position + 1, count: total) else {
            throw Failure(description: "--shard auto: JOB_COMPLETION_INDEX=\(position) is not below the count \(total) (\(origin)).")
        }
        return Resolved(spec: spec, source: .kubernetes,
                        description: "shard \(spec) from a Kubernetes Indexed Job (JOB_COMPLETION_INDEX=\(position), \(origin))")
    }
}
