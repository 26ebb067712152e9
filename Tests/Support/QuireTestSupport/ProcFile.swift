import Foundation

/// Files under /proc, read to their end: they report a size of 0, so a reader that trusts the
/// size (or reads one buffer) sees only their beginning.
public enum ProcFile {
    public static func text(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var data = Data()
        while let chunk = try? handle.read(upToCount: 1 << 16), !chunk.isEmpty { data.append(chunk) }
        return String(decoding: data, as: UTF8.self)
    }

    /// The shared objects process `pid` has mapped (their paths), from /proc/PID/maps.
    public static func mappedLibraries(of pid: Int32) -> [String] {
        (text("/proc/\(pid)/maps") ?? "").split(separator: "\n").compactMap { line in
            line.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init)
        }.filter { $0.contains(".so") }
    }
}
