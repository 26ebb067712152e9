/// The command line as the kernel passed it: bytes, not `String`s.
///
/// Swift decodes `argv` as UTF-8 and replaces invalid bytes, so a file named with invalid UTF-8
/// could not be opened from `CommandLine.arguments`.
package enum CommandLineBytes {
    /// Every `argv` entry, the program's name first.
    package static func read() -> [[UInt8]] {
        (0..<Int(CommandLine.argc)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
            var length = 0
            while pointer[length] != 0 { length += 1 }
            return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
                Array(UnsafeBufferPointer(start: $0, count: length))
            }
        }
    }
}
