internal import CCUPS

/// The destinations libcups returns (`cupsGetDests2`), owned until `deinit` (`cupsFreeDests`).
///
/// libcups merges the scheduler's queues with `/etc/cups/lpoptions` and `~/.cups/lpoptions`
/// (instances and their options) and marks the default destination.
final class DestinationList {
    let count: Int32
    let dests: UnsafeMutablePointer<cups_dest_t>?
    let status: IPPStatus

    init(_ connection: CUPSConnection) {
        var dests: UnsafeMutablePointer<cups_dest_t>?
        count = libcups.cupsGetDests2(connection.http, &dests)
        status = IPPStatus.last()
        self.dests = dests
    }

    deinit { libcups.cupsFreeDests(count, dests) }

    /// The `cups_dest_t` for a name (and instance), or nil.
    func find(name: String, instance: String?) -> UnsafeMutablePointer<cups_dest_t>? {
        libcups.cupsGetDest(name, instance, count, dests)
    }

    struct Entry {
        let name: String
        let instance: String?
        let isDefault: Bool
        let options: [String: String]
    }

    var entries: [Entry] {
        guard let dests else { return [] }
        return (0..<Int(count)).map { index in
            let dest = dests[index]
            var options: [String: String] = [:]
            if let list = dest.options {
                for i in 0..<Int(dest.num_options) {
                    if let n = list[i].name, let v = list[i].value {
                        options[String(cString: n)] = String(cString: v)
                    }
                }
            }
            return Entry(name: String(cString: dest.name),
                         instance: dest.instance.map { String(cString: $0) },
                         isDefault: dest.is_default != 0, options: options)
        }
    }
}
