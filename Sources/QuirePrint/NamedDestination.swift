internal import CCUPS

/// One queue looked up alone, as `lp` does (`cupsGetNamedDest`): a single Get-Printer-Attributes
/// for the queue with the attributes a `cups_dest_t` carries, then the queue's options from
/// `/etc/cups/lpoptions` and `~/.cups/lpoptions` — the `cups_dest_t` ``DestinationList`` would
/// hold for it, without fetching every queue's attributes and the default printer's whole
/// attribute set (`cupsGetDests2`, which libcups reads back a few bytes per system call).
///
/// Queues only: an instance ("queue/instance") exists only where an lpoptions file defines it,
/// which `cupsGetNamedDest` does not check, so instances are looked up in the whole list.
/// Owns the `cups_dest_t` until `deinit` (`cupsFreeDests`).
final class NamedDestination {
    let dest: UnsafeMutablePointer<cups_dest_t>

    /// Nil when the scheduler does not know the queue or cannot be reached: the caller then reads
    /// the whole list, which tells these apart and names what exists.
    ///
    /// - Throws: ``PrintError/Kind/schedulerNotAnswering`` when the scheduler does not answer a
    ///   small request first (``CUPSConnection/requireAnswering()``): `cupsGetNamedDest`, when
    ///   its lookup fails, enumerates destinations on a connection of libcups's own, which has no
    ///   time limit but libcups's 60 s per read (two minutes seen).
    init?(_ connection: CUPSConnection, queue: String) throws(PrintError) {
        try connection.requireAnswering()
        guard let dest = libcups.cupsGetNamedDest(connection.http, queue, nil) else { return nil }
        self.dest = dest
    }

    deinit { libcups.cupsFreeDests(1, dest) }

    /// The queue's options as libcups filled them in (`printer-state`, `printer-state-reasons`,
    /// `printer-is-accepting-jobs`, `printer-info`, … and the lpoptions settings).
    var options: [String: String] {
        var options: [String: String] = [:]
        guard let list = dest.pointee.options else { return options }
        for index in 0..<Int(dest.pointee.num_options) {
            if let name = list[index].name, let value = list[index].value {
                options[String(cString: name)] = String(cString: value)
            }
        }
        return options
    }
}
