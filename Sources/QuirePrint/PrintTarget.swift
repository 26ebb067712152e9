/// A destination found and checked for one job, with the connection that will carry it: the print
/// system's half of submitting (``PrintSystem/target(named:options:)``), done on its own so that it
/// can run while the documents are read and their page ranges checked. Nothing is created on the
/// scheduler until ``PrintSystem/submit(_:to:options:pageRangesValue:willSend:)``.
///
/// Holds an open connection and libcups's `cups_dest_t`/`cups_dinfo_t`, which are not for
/// concurrent use: one task makes the target, then one task (possibly another, once the first is
/// done with it) submits to it. That hand-over is why it is `Sendable`.
package final class PrintTarget: @unchecked Sendable {
    /// The destination as looked up (state from the scheduler; `isDefault` is not looked up when
    /// the queue was named).
    package let destination: Destination
    let connection: CUPSConnection
    let info: DestinationInfo

    init(destination: Destination, connection: CUPSConnection, info: DestinationInfo) {
        self.destination = destination
        self.connection = connection
        self.info = info
    }
}
