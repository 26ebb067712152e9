/// The command line as the kernel passed it: bytes, not `String`s.
///
/// Swift decodes `argv` as UTF-8 and replaces invalid bytes, so a file named with invalid UTF-8
/// could not be opened from `CommandLine.arguments`.
package enum CommandLineBytes {
    /// Every `argv` entry, the program's name first.
    package static func read() -> [[UInt8]] {
        // Byte by byte: Array(UnsafeBufferPointer) instantiates its storage type from its mangled
        // name on first use (~17 k instructions at every start); appending does not.
        (0..<Int(CommandLine.argc)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
            var bytes: [UInt8] = []
            var offset = 0
            while true {
                let byte = UInt8(bitPattern: pointer[offset])
                if byte == 0 { break }
                bytes.append(byte)
                offset += 1
            }
            return bytes
        }
    }
}
