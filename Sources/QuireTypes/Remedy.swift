/// Which setting would change the outcome of a failure. Library messages say what went wrong;
/// a front-end turns the remedy into its own words (the CLI names its flag, a GUI its control).
public enum Remedy: Sendable, Hashable {
    /// Raising this limit lets the input through.
    case raise(Limit)
    /// The document needs a password.
    case password
    /// Forcing regeneration retries a file recorded as failed.
    case force
    /// Walking directories recursively.
    case recursive
    /// Naming a print destination (there is no default one).
    case destination
}
