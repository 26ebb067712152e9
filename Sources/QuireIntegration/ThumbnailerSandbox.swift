#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import QuireSystem
import QuireTypes

/// What GNOME's thumbnail factory can run. gnome-desktop runs every `.thumbnailer` command in
/// bubblewrap with only `/usr` (and `/bin`, `/sbin`, `/lib`, `/lib64`, which are links into it on
/// merged-/usr systems) visible: a program outside, or one that needs a library outside (a Swift
/// runtime in a toolchain directory), exits 127 there and every thumbnail of its types fails.
public enum ThumbnailerSandbox {
    /// The directories the sandbox shows (as prefixes of resolved paths).
    static let visibleDirectories = ["/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/"]

    /// Why the sandbox cannot run the program installed at `file` and invoked as `installedPath`
    /// (they differ when staging under a DESTDIR); nil when it can.
    public static func problem(installedPath: String, file: String) -> String? {
        let runPath = installedPath == file ? (resolved(file) ?? file) : installedPath
        guard isVisible(runPath) else {
            return "\(runPath) is outside /usr, the only place GNOME's thumbnail sandbox can run programs from"
        }
        guard access(file, X_OK) == 0 else { return "\(file) is not an executable file" }
        let libraries: [(name: String, path: String?)]
        do { libraries = try neededLibraries(file) } catch { return error.description }
        for library in libraries {
            guard let path = library.path else {
                return "\(runPath) needs \(library.name), which the dynamic loader does not find"
            }
            let real = resolved(path) ?? path
            if !isVisible(real) {
                return "\(runPath) needs \(real), outside /usr, which GNOME's thumbnail sandbox does not show"
            }
        }
        return nil
    }

    static func isVisible(_ path: String) -> Bool {
        visibleDirectories.contains { path.hasPrefix($0) }
    }

    static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Every shared library the program loads at start-up, as the dynamic loader resolves them
    /// (`ld.so --list`, with an empty environment, as a file manager would start it): the direct
    /// and indirect dependencies, each with its path or nil when not found.
    static func neededLibraries(_ file: String) throws(Failure) -> [(name: String, path: String?)] {
        guard let interpreter = try interpreter(of: file) else { return [] }   // statically linked
        let output = try run([interpreter, "--list", file])
        var result: [(name: String, path: String?)] = []
        for line in output.split(separator: "\n") {
            let text = line.trimmingWhitespace()
            if let arrow = text.firstRange(of: " => ") {
                let name = String(text[..<arrow.lowerBound])
                let rest = text[arrow.upperBound...]
                if rest.hasPrefix("not found") {
                    result.append((name, nil))
                } else if let path = rest.split(separator: " ").first, path.hasPrefix("/") {
                    result.append((name, String(path)))
                }
            } else if text.hasPrefix("/"), let path = text.split(separator: " ").first {
                result.append((String(path), String(path)))   // the loader itself
            }
        }
        return result
    }

    /// The ELF program interpreter (`PT_INTERP`) of a 64-bit little-endian executable; nil for
    /// a static one.
    static func interpreter(of file: String) throws(Failure) -> String? {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: "cannot read \(file): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        func read(_ count: Int, at offset: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
            return got == count ? bytes : nil
        }
        func integer(_ bytes: [UInt8], _ at: Int, _ size: Int) -> Int {
            (0..<size).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
        }
        guard let header = read(64, at: 0), header[0..<4] == [0x7F, 0x45, 0x4C, 0x46], header[4] == 2, header[5] == 1 else {
            throw Failure(description: "\(file) is not a 64-bit little-endian ELF program")
        }
        let tableOffset = integer(header, 0x20, 8), entrySize = integer(header, 0x36, 2), count = integer(header, 0x38, 2)
        for index in 0..<count {
            guard let entry = read(entrySize, at: tableOffset + index * entrySize) else { break }
            if integer(entry, 0, 4) == 3 {   // PT_INTERP
                let offset = integer(entry, 8, 8), size = integer(entry, 32, 8)
                guard size > 1, size < 4096, let path = read(size, at: offset) else { return nil }
                return String(decoding: path.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        return nil
    }

    /// Runs a program (no shell) with an empty environment and returns its standard output.
    static func run(_ arguments: [String]) throws(Failure) -> String {
        guard let result = ChildProcess.run(arguments, environment: [], captureOutput: true) else {
            throw Failure(description: "cannot run \(arguments[0])")
        }
        guard result.termination == .exited(0) else {
            throw Failure(description: "\(arguments[0]) --list could not list the libraries of \(arguments.last ?? "")")
        }
        return String(decoding: result.output, as: UTF8.self)
    }
}
