#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The entry point: the thumbnailer contract takes a short path (see ``ThumbnailFastPath``),
/// everything else goes through the argument parser.
@main
enum QuireMain {
    static func main() async {
        if let status = ThumbnailFastPath.run(RawArguments.entries) {
            exit(status.rawValue)
        }
        await QuireCommand.main()
    }
}
