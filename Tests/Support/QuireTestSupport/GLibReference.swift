import Foundation

/// What GLib itself answers, asked from `/usr/bin/python3` through PyGObject: an independent
/// reference for the URIs Quire computes (a file manager runs the same GLib code).
public enum GLibReference {
    /// One answer per path: `g_filename_to_uri` of `absolute`, and the URI GIO gives the
    /// command-line argument `argument` in `directory` (`g_file_new_for_commandline_arg_and_cwd`,
    /// then `g_file_get_uri`, as `gio info ARG` run there would), and the MD5 hex digest of the
    /// first (Python's `hashlib`), which names the file's thumbnail.
    public struct Answer: Sendable, Equatable {
        public let uri: String
        public let commandLineURI: String
        public let md5: String
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// - Parameter paths: `(absolute, argument, directory)` as raw bytes.
    public static func answers(_ paths: [(absolute: [UInt8], argument: [UInt8], directory: [UInt8])]) throws -> [Answer] {
        let script = """
            import hashlib, sys
            import gi
            gi.require_version("Gio", "2.0")
            from gi.repository import GLib, Gio
            arguments = [bytes.fromhex(text) for text in sys.argv[1:]]
            for index in range(0, len(arguments), 3):
                absolute, argument, directory = arguments[index:index + 3]
                uri = GLib.filename_to_uri(absolute, None)
                given = Gio.File.new_for_commandline_arg_and_cwd(argument, directory).get_uri()
                print(uri, given, hashlib.md5(uri.encode("ascii")).hexdigest())
            """
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        let arguments = paths.flatMap { [hex($0.absolute), hex($0.argument), hex($0.directory)] }
        let result = ProcessRunner.run(["/usr/bin/python3", "-c", script] + arguments, timeout: 60)
        guard result.status == 0 else { throw Failure(description: "python3 (GLib): \(result.standardError)") }
        let answers = result.standardOutputText.split(separator: "\n").map { line -> Answer? in
            let fields = line.split(separator: " ").map(String.init)
            return fields.count == 3 ? Answer(uri: fields[0], commandLineURI: fields[1], md5: fields[2]) : nil
        }
        guard answers.count == paths.count, answers.allSatisfy({ $0 != nil }) else {
            throw Failure(description: "python3 (GLib) answered: \(result.standardOutputText)")
        }
        return answers.compactMap { $0 }
    }
}
