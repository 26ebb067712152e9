internal import CCUPS
import QuireSheets

/// A user's saved choices for a printer, where CUPS keeps them: the lpoptions file (`lpoptions
/// -p PRINTER -o …` writes it, `lp` reads it), through `cupsGetDests2`/`cupsSetDests2`. For a
/// normal user that is `~/.cups/lpoptions`; libcups writes root's choices to the system file
/// (`$CUPS_SERVERROOT/lpoptions`, normally `/etc/cups/lpoptions`), exactly as `lpoptions` does.
extension PrintSystem {
    /// The options "Remember for this printer" saves: paper, sides, colour, scaling, pages per
    /// sheet (never copies or page ranges, which belong to one job).
    public static let rememberedOptionNames = ["media", "sides", "print-color-mode"]
        + SheetOptions.choices.filter(\.remembered).map(\.name)

    /// The options saved for `destination` (name → value) — those of ``rememberedOptionNames``
    /// and the other sheet options that the lpoptions file holds for it.
    public func savedOptions(for destination: Destination) throws(PrintError) -> [String: String] {
        let connection = try connect()
        let list = DestinationList(connection)
        guard let entry = list.entries.first(where: { $0.name == destination.name && $0.instance == destination.instance }) else {
            return [:]
        }
        let wanted = Set(Self.rememberedOptionNames).union(SheetOptions.optionNames)
        return entry.options.filter { wanted.contains($0.key) }
    }

    /// Saves `options` for `destination` in the lpoptions file (each replaces its saved value)
    /// and removes the names in `removing` (back to the printer's default); other saved options
    /// stay as they are.
    public func saveOptions(_ options: [String: String], removing: Set<String> = [], for destination: Destination) throws(PrintError) {
        for key in Set(options.keys).union(removing) where !Self.rememberedOptionNames.contains(key) {
            throw PrintError(.invalidOption, "\(key) is not remembered for a printer (only \(Self.rememberedOptionNames.joined(separator: ", ")))")
        }
        let connection = try connect()
        var dests: UnsafeMutablePointer<cups_dest_t>?
        let count = libcups.cupsGetDests2(connection.http, &dests)
        defer { libcups.cupsFreeDests(count, dests) }
        guard let dest = libcups.cupsGetDest(destination.name, destination.instance, count, dests) else {
            throw PrintError(.unknownDestination, "\(destination.fullName): no such printer")
        }
        for key in Set(options.keys).union(removing) {
            dest.pointee.num_options = libcups.cupsRemoveOption(key, dest.pointee.num_options, &dest.pointee.options)
        }
        for key in Self.rememberedOptionNames {
            guard let value = options[key] else { continue }
            dest.pointee.num_options = libcups.cupsAddOption(key, value, dest.pointee.num_options, &dest.pointee.options)
        }
        if libcups.cupsSetDests2(connection.http, count, dests) != 0 {
            let status = IPPStatus.last()
            throw PrintError(.requestFailed, "\(destination.fullName): cannot save the options (\(status.message))", ipp: status)
        }
    }

    /// The paper's unprintable edges on `destination` (`media-col-database` margins, as
    /// `cupsGetDestMediaByName` reports them), in points; zero when the printer does not say.
    public func margins(of destination: Destination, media: String) throws(PrintError) -> Margins {
        let connection = try connect()
        let info = try destinationInfo(connection, destination)
        var size = cups_size_t()
        guard libcups.cupsGetDestMediaByName(connection.http, info.dest, info.info, media, UInt32(CUPS_MEDIA_FLAGS_DEFAULT), &size) != 0 else {
            return .zero
        }
        func points(_ hundredths: Int32) -> Double { Double(hundredths) / 100 / 25.4 * 72 }
        return Margins(top: points(size.top), bottom: points(size.bottom), left: points(size.left), right: points(size.right))
    }
}
