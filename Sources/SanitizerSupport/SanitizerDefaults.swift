// LeakSanitizer's built-in suppressions for `make asan` builds (ignored by normal builds: only
// the sanitizer runtime looks this symbol up). GLib's shared-mime-info cache (xdgmime),
// GObject type registrations and fontconfig's configuration are allocated once and kept for the
// life of the process by design; they would otherwise fail every `quire` run that a test starts
// with a cleared environment (no LSAN_OPTIONS). Also two swift-foundation leaks (a read buffer
// of Data(contentsOf:), a weak-reference side table of Process.run) and XCTest's (the test runner
// links the CLI). Same list as Fuzz/lsan.supp; built in so that processes whose environment
// is cleared or who cannot read that file (inside bubblewrap) use it too.
@_cdecl("__lsan_default_suppressions")
public func lsanDefaultSuppressions() -> UnsafePointer<CChar> {
    let list: StaticString = """
        leak:libgio-2.0.so
        leak:libglib-2.0.so
        leak:libgobject-2.0.so
        leak:libfontconfig.so
        leak:readBytesFromFile
        leak:Foundation7ProcessC3run
        leak:libXCTest.so

        """
    return UnsafeRawPointer(list.utf8Start).assumingMemoryBound(to: CChar.self)
}

