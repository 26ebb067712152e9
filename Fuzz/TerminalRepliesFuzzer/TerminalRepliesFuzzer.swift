// libFuzzer target: what the terminal viewer reads from the terminal — key sequences and the
// answers to its capability queries (kitty graphics, XTVERSION, CSI 16 t cell size, DA1). A
// terminal (or whatever sits behind the tty) is untrusted input too.
// Properties: decoding never traps, an input of n bytes yields at most n keys, an input that is
// not incomplete stays decodable when split anywhere (the session reads in chunks), and the
// reply parser reports only positive cell sizes.
// Built with -sanitize=fuzzer (make fuzz); without it, a replay driver runs saved inputs.
import FuzzDriver
import QuireTerminal

func fuzzOne(_ bytes: [UInt8]) {
    let keys = TerminalKey.parse(bytes)
    precondition(keys.count <= bytes.count)
    _ = TerminalKey.isIncomplete(bytes)
    if let first = bytes.first {
        // A chunk boundary anywhere: each part decodes on its own.
        let cut = Int(first) % bytes.count
        _ = TerminalKey.parse(Array(bytes[..<cut]))
        _ = TerminalKey.parse(Array(bytes[cut...]))
        _ = TerminalKey.isIncomplete(Array(bytes[..<cut]))
    }
    let reply = TerminalReply(bytes)
    precondition(reply.cellWidth.map { $0 > 0 } ?? true)
    precondition(reply.cellHeight.map { $0 > 0 } ?? true)
    precondition((reply.cellWidth == nil) == (reply.cellHeight == nil))
    precondition(reply.hasDeviceAttributes || reply.deviceAttributes.isEmpty)
    precondition(!reply.version.unicodeScalars.contains("\u{1B}"))
}

#if FUZZING
@_cdecl("fuzz_terminal_replies_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzzOne)
}
#else
@main
struct TerminalRepliesReplay {
    static func main() throws {
        try FuzzDriver.replay(fuzzOne)
    }
}
#endif
