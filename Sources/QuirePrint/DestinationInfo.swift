internal import CCUPS

/// A destination's `cups_dest_t` (inside its owning list) and its `cups_dinfo_t`
/// (`cupsCopyDestInfo`, freed in `deinit`), on one connection.
final class DestinationInfo {
    let connection: CUPSConnection
    /// What owns `dest` (a ``DestinationList`` or a ``NamedDestination``), kept alive with it.
    private let owner: AnyObject
    let dest: UnsafeMutablePointer<cups_dest_t>
    let info: OpaquePointer

    convenience init(_ connection: CUPSConnection, list: DestinationList, destination: Destination) throws(PrintError) {
        guard let dest = list.find(name: destination.name, instance: destination.instance) else {
            throw PrintError(.unknownDestination, "\(destination.fullName): no such printer",
                             available: list.entries.map { entry in entry.instance.map { "\(entry.name)/\($0)" } ?? entry.name })
        }
        try self.init(connection, dest: dest, owner: list, name: destination.fullName)
    }

    convenience init(_ connection: CUPSConnection, named: NamedDestination, destination: Destination) throws(PrintError) {
        try self.init(connection, dest: named.dest, owner: named, name: destination.fullName)
    }

    private init(_ connection: CUPSConnection, dest: UnsafeMutablePointer<cups_dest_t>, owner: AnyObject,
                 name: String) throws(PrintError) {
        guard let info = libcups.cupsCopyDestInfo(connection.http, dest) else {
            let status = IPPStatus.last()
            try connection.requireAnswered()
            throw PrintError(.requestFailed, "\(name): cannot read the printer's capabilities", ipp: status)
        }
        self.connection = connection
        self.owner = owner
        self.dest = dest
        self.info = info
    }

    deinit { libcups.cupsFreeDestInfo(info) }

    func supported(_ option: String) -> IPPAttributes.Value? {
        guard let attr = libcups.cupsFindDestSupported(connection.http, dest, info, option) else { return nil }
        return IPPAttributes.read(attr)
    }

    func defaultValue(_ option: String) -> IPPAttributes.Value? {
        guard let attr = libcups.cupsFindDestDefault(connection.http, dest, info, option) else { return nil }
        return IPPAttributes.read(attr)
    }

    /// `cupsCheckDestSupported`: whether the destination takes `value` for `option`.
    func check(_ option: String, _ value: String) -> Bool {
        libcups.cupsCheckDestSupported(connection.http, dest, info, option, value) != 0
    }

    /// Media names (PWG self-describing names) the destination offers, and its default.
    func media() -> (names: [String], defaultName: String?) {
        var names: [String] = []
        let count = libcups.cupsGetDestMediaCount(connection.http, dest, info, UInt32(CUPS_MEDIA_FLAGS_DEFAULT))
        var size = cups_size_t()
        for index in 0..<max(0, count) {
            if libcups.cupsGetDestMediaByIndex(connection.http, dest, info, index, UInt32(CUPS_MEDIA_FLAGS_DEFAULT), &size) != 0 {
                let name = Self.string(size.media)
                if !names.contains(name) { names.append(name) }
            }
        }
        var defaultName: String?
        if libcups.cupsGetDestMediaDefault(connection.http, dest, info, UInt32(CUPS_MEDIA_FLAGS_DEFAULT), &size) != 0 {
            defaultName = Self.string(size.media)
        }
        return (names, defaultName)
    }

    static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
