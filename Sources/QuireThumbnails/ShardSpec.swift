/// A deterministic share of a tree: `K/N` takes the files whose path hash is `K-1` modulo `N`,
/// so N machines (or an array job) given the same tree split it exactly, with no overlap.
public struct ShardSpec: Sendable, Hashable, CustomStringConvertible {
    /// 1-based shard number.
    public let index: Int
    public let count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        self.init(index: k, count: n)
    }

    public var description: String { "\(index)/\(count)" }

    /// Whether the file at the canonical `path` belongs to this shard (FNV-1a 64 of the bytes).
    public func contains(pathBytes path: [UInt8]) -> Bool {
        Int(Self.hash(path) % UInt64(count)) == index - 1
    }

    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
