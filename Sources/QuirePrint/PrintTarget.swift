import Synchronization

/// A destination found and checked for one job, with the connection that will carry it: the print
/// system's half of submitting (``PrintSystem/target(named:options:)``), done on its own so that it
/// can run while the documents are read and their page ranges checked. Nothing is created on the
/// scheduler until ``PrintSystem/submit(_:to:options:pageRangesValue:willSend:)``.
///
/// The open connection and libcups's `cups_dest_t`/`cups_dinfo_t` are not for concurrent use:
/// one task makes the target, then another may submit to it. They are reached only through
/// ``withConnection(_:)``, under a lock, so a target can be handed from one task to another.
package final class PrintTarget: Sendable {
    /// The destination as looked up (state from the scheduler; `isDefault` is not looked up when
    /// the queue was named).
    package let destination: Destination
    /// The destination's saved options (lpoptions, an instance's settings, the queue's
    /// defaults) that say how sheets are composed (``SheetOptions/optionNames``) or on which
    /// sides they print: what ``PrintSystem/savedOptions(for:)`` reads, from the same lookup.
    package let savedSheetOptions: [(String, String)]
    private let handles: Mutex<Handles>

    /// The connection and the destination's information, handed over together.
    struct Handles {
        let connection: CUPSConnection
        let info: DestinationInfo
    }

    init(destination: Destination, savedSheetOptions: [(String, String)], handles: sending Handles) {
        self.destination = destination
        self.savedSheetOptions = savedSheetOptions
        self.handles = Mutex(handles)
    }

    /// Runs `body` with the connection and the destination's information, one caller at a time.
    func withConnection<Result: Sendable, E: Error>(
        _ body: (CUPSConnection, DestinationInfo) throws(E) -> Result) throws(E) -> Result {
        try handles.withLock { (handles: inout sending Handles) throws(E) -> Result in
            try body(handles.connection, handles.info)
        }
    }
}
