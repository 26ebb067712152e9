// libFuzzer target: the URI → path step of the D-Bus previewer (`quire look --service`,
// org.gnome.NautilusPreviewer2.ShowFile(uri, …)): any process on the session bus may call it
// with any string. FileURI.localPath(ofURI:) is what PreviewerService.localFile uses.
// Properties: a path comes back only for file URIs; it is absolute, has no NUL and no "." or
// ".." component; its own file:// URI names the same path again (what Nautilus would send).
// Built with -sanitize=fuzzer (make fuzz); without it, a replay driver runs saved inputs.
import FuzzDriver
import QuireGIO
import QuireTypes

func fuzzOne(_ bytes: [UInt8]) {
    let uri = String(decoding: bytes, as: UTF8.self)
    guard !uri.utf8.contains(0) else { return }  // D-Bus strings are UTF-8 without NUL
    guard let path = FileURI.localPath(ofURI: uri) else { return }
    precondition(path.first == UInt8(ascii: "/"), "\(uri) gave a relative path")
    precondition(!path.contains(0))
    let components = path.split(separator: UInt8(ascii: "/"))
    precondition(!components.contains { $0.elementsEqual([0x2E]) || $0.elementsEqual([0x2E, 0x2E]) },
                 "\(uri) gave a path with . or ..")
    let again = try? FileURI.uri(forAbsolutePath: path)
    precondition(again.map { FileURI.localPath(ofURI: $0) == path } ?? false,
                 "\(uri) → \(DocumentPath(bytes: path)) does not round-trip through its own URI")
    precondition(!DocumentPath(bytes: path).description.utf8.contains(0x0A))
}

#if FUZZING
@_cdecl("fuzz_previewer_uri_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzzOne)
}
#else
@main
struct PreviewerURIReplay {
    static func main() throws {
        try FuzzDriver.replay(fuzzOne)
    }
}
#endif
