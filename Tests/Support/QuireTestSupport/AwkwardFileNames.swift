/// File names that URI conversions get wrong: characters GLib leaves as they are in a path
/// URI and RFC 3986's unreserved set does not (`!$&'()*+,=:@`), characters that must be
/// escaped or they end the path (`?`, `#`) or start an escape (`%`), control characters,
/// non-ASCII UTF-8 and bytes that are not UTF-8 at all. Each ends in `.pdf`.
public enum AwkwardFileNames {
    public static let all: [(label: String, bytes: [UInt8])] = [
        ("space", Array("with space.pdf".utf8)),
        ("percent", Array("per%cent 100%25.pdf".utf8)),
        ("hash", Array("hash#tag.pdf".utf8)),
        ("question mark", Array("what?x=1.pdf".utf8)),
        ("newline", Array("new\nline.pdf".utf8)),
        ("non-ASCII UTF-8", Array("ünïcödé ☃ 日本.pdf".utf8)),
        ("invalid UTF-8", Array("bad-".utf8) + [0xFF, 0xE9, 0x80] + Array(".pdf".utf8)),
        ("sub-delimiters", Array("sub-delims !$&'()*+,;=:@[]~.pdf".utf8)),
    ]
}
