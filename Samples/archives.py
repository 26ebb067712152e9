#!/usr/bin/env python3
"""Archive samples for the archive engine, written into OUT/archives/: an ordinary tree as
.tar.gz, .zip and .tar.xz; hostile archives (names that climb out with `..`, absolute names,
control characters, a symbolic link pointing out of the folder); a zip bomb (1 GiB of zeros
deflated to about 1 MB); a deflated zip whose folders are stored entries, first and last; and a
file that only claims to be a zip."""
import io, os, sys, tarfile, time, zipfile

STAMP = 1700000000   # 2023-11-14 22:13:20 UTC

def tree_entries():
    return [("project/README.md", b"# Project\n"), ("project/src/main.c", b"int main(void) { return 0; }\n"),
            ("project/src/util/strings.c", b"/* strings */\n" * 200), ("project/docs/guide.txt", b"guide\n" * 1000)]

def write_tar(path, mode, entries, links=()):
    with tarfile.open(path, mode) as archive:
        for name, data in entries:
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), STAMP
            archive.addfile(info, io.BytesIO(data))
        for name, target in links:
            info = tarfile.TarInfo(name)
            info.type, info.linkname, info.mtime = tarfile.SYMTYPE, target, STAMP
            archive.addfile(info)

def write_zip(path, entries, compression=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(path, "w", compression) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=time.gmtime(STAMP)[:6])
            info.compress_type = compression
            archive.writestr(info, data)

def main(out):
    folder = os.path.join(out, "archives")
    os.makedirs(folder, exist_ok=True)
    entries = tree_entries()
    write_tar(os.path.join(folder, "project.tar.gz"), "w:gz", entries, links=[("project/latest", "src/main.c")])
    write_tar(os.path.join(folder, "project.tar.xz"), "w:xz", entries)
    write_zip(os.path.join(folder, "project.zip"), entries)
    write_zip(os.path.join(folder, "hostile.zip"), [("../../escape.txt", b"x"), ("/etc/absolute.txt", b"y"),
                                                    ("bell\x07name.txt", b"z"), ("fine.txt", b"ok")])
    write_tar(os.path.join(folder, "hostile.tar"), "w", [("inside.txt", b"ok")],
              links=[("passwd", "../../../../etc/passwd"), ("here", "inside.txt")])
    with zipfile.ZipFile(os.path.join(folder, "bomb.zip"), "w", zipfile.ZIP_DEFLATED) as archive:
        info = zipfile.ZipInfo("zeros.bin", date_time=time.gmtime(STAMP)[:6])
        info.compress_type = zipfile.ZIP_DEFLATED
        with archive.open(info, "w", force_zip64=True) as entry:
            block = bytes(1 << 20)
            for _ in range(1024):
                entry.write(block)
    # A deflated zip whose folders are stored entries, first and last (as `zip -r` writes a
    # tree): its method is the files' (deflation), not the last folder's (uncompressed).
    with zipfile.ZipFile(os.path.join(folder, "folders.zip"), "w") as archive:
        for name, data, method in [("project/", b"", zipfile.ZIP_STORED),
                                   ("project/notes.txt", b"notes\n" * 500, zipfile.ZIP_DEFLATED),
                                   ("project/guide.txt", b"guide\n" * 800, zipfile.ZIP_DEFLATED),
                                   ("project/empty/", b"", zipfile.ZIP_STORED)]:
            info = zipfile.ZipInfo(name, date_time=time.gmtime(STAMP)[:6])
            info.compress_type = method
            if name.endswith("/"):
                info.external_attr = (0o40755 << 16) | 0x10
            archive.writestr(info, data)
    with open(os.path.join(folder, "not-a-zip.zip"), "wb") as fake:
        fake.write(b"PK\x03\x04" + bytes(range(256)) * 8)

if __name__ == "__main__":
    main(sys.argv[1])
