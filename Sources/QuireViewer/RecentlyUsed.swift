/// Values kept by key and bounded in bytes, the least recently used dropped first: the pages a
/// viewer keeps — rendered images in the model and the terminal, painted surfaces in the
/// window — so paging through a 1000-page document keeps memory flat. What is dropped is handed
/// back to its owner (a cairo surface to destroy).
public struct RecentlyUsed<Key: Hashable, Value> {
    public let byteLimit: Int
    private var values: [Key: (value: Value, bytes: Int)] = [:]
    /// The keys held, least recently used first.
    public private(set) var order: [Key] = []
    /// The bytes held.
    public private(set) var byteCount = 0

    public init(byteLimit: Int) {
        self.byteLimit = byteLimit
    }

    public var count: Int { values.count }

    public func contains(_ key: Key) -> Bool { values[key] != nil }

    /// The value for `key`, without counting it as used.
    public subscript(key: Key) -> Value? { values[key]?.value }

    /// The value for `key`, counted as used (it goes last to be dropped).
    public mutating func use(_ key: Key) -> Value? {
        guard let held = values[key] else { return nil }
        if order.last != key, let index = order.lastIndex(of: key) {
            order.remove(at: index)
            order.append(key)
        }
        return held.value
    }

    /// Keeps `value` (of `bytes` bytes) for `key`, in place of one held before; then, past the
    /// byte limit, drops the least recently used — never the one just added (it is kept even if
    /// it alone is over the limit) nor those `keeping` says. Returns what went: the value it
    /// replaced and those dropped.
    @discardableResult
    public mutating func insert(_ value: Value, bytes: Int, for key: Key, keeping: (Key) -> Bool = { _ in false }) -> [Value] {
        var gone: [Value] = []
        if let old = remove(key) { gone.append(old) }
        values[key] = (value, bytes)
        order.append(key)
        byteCount += bytes
        while byteCount > byteLimit, let oldest = order.dropLast().first(where: { !keeping($0) }) {
            if let dropped = remove(oldest) { gone.append(dropped) }
        }
        return gone
    }

    /// Drops the value for `key`, handing it back.
    @discardableResult
    public mutating func remove(_ key: Key) -> Value? {
        guard let held = values.removeValue(forKey: key) else { return nil }
        order.removeAll { $0 == key }
        byteCount -= held.bytes
        return held.value
    }

    /// Drops every value whose key `matches`, handing them back.
    @discardableResult
    public mutating func removeAll(where matches: (Key) -> Bool) -> [Value] {
        var gone: [Value] = []
        for key in order where matches(key) {
            if let held = values.removeValue(forKey: key) {
                byteCount -= held.bytes
                gone.append(held.value)
            }
        }
        order.removeAll(where: matches)
        return gone
    }
}

extension RecentlyUsed: Sendable where Key: Sendable, Value: Sendable {}
