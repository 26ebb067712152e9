#!/usr/bin/env python3
"""Data samples for issue 38 (SQLite, JSON, Markdown, notebooks), in data/.

SQLite (Python's sqlite3 module):
  data/shop.sqlite           two tables (customers: 250 rows, orders: 1,000 rows), a view, an
                             index, ANALYZE's sqlite_stat1; text with a newline and a tab, NULLs,
                             a blob, a real.
  data/odd name ?#%.sqlite   the same tables under a name with URI-special characters.
  data/corrupt.sqlite        shop.sqlite with the pages of its orders table overwritten.
  data/not-a-database.sqlite a valid header followed by garbage (the schema page is unreadable).
  data/journal.sqlite        a database with a hot rollback journal beside it
                             (journal.sqlite-journal), left as a crashed writer leaves it.
  data/wal.sqlite            a database in WAL mode with its -wal file beside it.
  data/escapes.sqlite        a table and values holding terminal escape sequences.
"""
import os
import shutil
import sqlite3
import sys
from pathlib import Path

out = Path(sys.argv[1]) / "data"
out.mkdir(parents=True, exist_ok=True)


def fresh(path):
    for suffix in ("", "-journal", "-wal", "-shm"):
        p = Path(str(path) + suffix)
        if p.exists():
            p.unlink()


def shop(path):
    fresh(path)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT, balance REAL, photo BLOB)")
    db.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer INTEGER REFERENCES customers(id), item TEXT, quantity INTEGER)")
    cities = ["Zürich", "Lyon", "Kraków", "Porto", None]
    db.executemany("INSERT INTO customers VALUES (?, ?, ?, ?, ?)",
                   [(n, f"Customer {n:03d}", cities[n % 5], n * 1.25, bytes(n % 7) if n % 3 == 0 else None)
                    for n in range(1, 251)])
    db.execute("UPDATE customers SET name = 'Two\nlines\tand a tab' WHERE id = 2")
    db.executemany("INSERT INTO orders VALUES (?, ?, ?, ?)",
                   [(n, n % 250 + 1, f"item-{n % 37}", n % 9 + 1) for n in range(1, 1001)])
    db.execute("CREATE INDEX orders_by_customer ON orders(customer)")
    db.execute("CREATE VIEW big_orders AS SELECT id, item, quantity FROM orders WHERE quantity > 7")
    db.commit()
    db.execute("ANALYZE")
    db.commit()
    db.close()


shop(out / "shop.sqlite")
shutil.copyfile(out / "shop.sqlite", out / "odd name ?#%.sqlite")

# Corrupt: the orders table's b-tree pages overwritten with a pattern (the header and schema
# stay readable, reading orders fails with "database disk image is malformed").
data = bytearray((out / "shop.sqlite").read_bytes())
page_size = int.from_bytes(data[16:18], "big")
db = sqlite3.connect(out / "shop.sqlite")
root = db.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'orders'").fetchone()[0]
db.close()
for page in range(root, min(root + 4, len(data) // page_size + 1)):
    start = (page - 1) * page_size
    data[start:start + page_size] = bytes([0xA5]) * page_size
(out / "corrupt.sqlite").write_bytes(bytes(data))

# A header and then garbage: the schema cannot be read.
garbage = bytearray(b"SQLite format 3\0" + bytes([0x10, 0x00, 1, 1, 0, 64, 32, 32]) + bytes(4) * 2)
garbage += bytes((n * 131 + 7) % 256 for n in range(8192 - len(garbage)))
(out / "not-a-database.sqlite").write_bytes(bytes(garbage))

# A hot journal: a writer that changed the database and died before committing. The file on
# disk has the uncommitted change; the journal beside it holds the pages to roll back.
journal = out / "journal.sqlite"
fresh(journal)
db = sqlite3.connect(journal)
db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
db.executemany("INSERT INTO notes (body) VALUES (?)", [(f"note {n}",) for n in range(50)])
db.commit()
db.close()
import subprocess
subprocess.run([sys.executable, "-c", f"""
import sqlite3, os
db = sqlite3.connect({str(journal)!r}, isolation_level=None)
db.execute("PRAGMA cache_size = 1")
db.execute("BEGIN")
db.executemany("INSERT INTO notes (body) VALUES (?)", [("uncommitted " + "x" * 500,) for n in range(200)])
os._exit(0)   # dies mid-transaction: the -journal stays beside the file
"""], check=True)
assert (out / "journal.sqlite-journal").exists(), "no hot journal was left"

wal = out / "wal.sqlite"
fresh(wal)
db = sqlite3.connect(wal)
db.execute("PRAGMA journal_mode = WAL")
db.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, what TEXT)")
db.executemany("INSERT INTO events (what) VALUES (?)", [(f"event {n}",) for n in range(20)])
db.commit()
db.close()
subprocess.run([sys.executable, "-c", f"""
import sqlite3, os
db = sqlite3.connect({str(wal)!r})
db.execute("PRAGMA wal_autocheckpoint = 0")
db.execute("INSERT INTO events (what) VALUES ('only in the WAL')")
db.commit()
os._exit(0)   # no checkpoint: the row stays in wal.sqlite-wal
"""], check=True)
assert (out / "wal.sqlite-wal").exists(), "no WAL was left"

escapes = out / "escapes.sqlite"
fresh(escapes)
db = sqlite3.connect(escapes)
db.execute('CREATE TABLE "evil\x1b]0;owned\x07" (v TEXT)')
db.execute('INSERT INTO "evil\x1b]0;owned\x07" VALUES (?)', ("\x1b]52;c;cHduZWQ=\x07clipboard",))
db.commit()
db.close()

# JSON: a nested document (odd keys, accents, an empty object and array), JSON Lines, an
# invalid document (a missing comma on line 4, column 3), nesting 100,000 deep.
import json
document = {
    "name": "Quire",
    "version": 38,
    "items": [{"id": n, "name": f"item {n}", "tags": ["a", "b"][: n % 3], "price": n * 1.5} for n in range(5)],
    "odd key": {"with \"quotes\"": True, "ünïcode": None, "1st": "starts with a digit"},
    "empty": {},
    "none": [],
}
(out / "sample.json").write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
with open(out / "records.jsonl", "w", encoding="utf-8") as f:
    for n in range(40):
        f.write(json.dumps({"n": n, "even": n % 2 == 0, "name": f"record {n}"}) + "\n")
(out / "invalid.json").write_text('{\n  "a": 1,\n  "b": [1, 2]\n  "c": 3\n}\n', encoding="utf-8")
(out / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")

# Markdown covering every construct (GitHub's extensions included); remote and local images and
# raw HTML, which must never be fetched or run; a billion laughs of nested lists.
(out / "readme.md").write_text("""# Quire Notes

Quire shows *data* and **notes** as people read them, with `inline code`, ~~struck~~ text
and a [link](https://example.org/docs) and an autolink https://example.org.

## Lists

- first item
- second item with a [local link](other.md)
  1. nested one
  2. nested two
- [ ] a task to do
- [x] a task done

> A quoted line
> that goes on.

### Code

```swift
let answer = 42
print(answer)
```

| Name | City | Amount |
|------|------|-------:|
| Ada  | Zürich | 12 |
| Linus | Helsinki | 7 |

---

![remote picture](http://127.0.0.1:PORT/picture.png)
![local picture](quadrants.png)

<script>alert("never run")</script>
<img src="http://127.0.0.1:PORT/html.png">

Text with a footnote[^1].

[^1]: The footnote's text.
""", encoding="utf-8")
laughs = "".join("  " * n + "- level %d\n" % n for n in range(2000))
(out / "nested-lists.md").write_text(laughs, encoding="utf-8")

# A Jupyter notebook (nbformat 4) written as JSON: Markdown cells, code cells with execution
# counts, a stream output, an error with an ANSI-coloured traceback, an HTML output, and a real
# PNG output (a 64x48 picture: red over blue, made here with zlib).
import base64, struct, zlib
def png(width, height, pixel):
    raw = b"".join(b"\0" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
picture = png(64, 48, lambda x, y: (230, 20, 20) if y < 24 else (20, 20, 230))
notebook = {
    "nbformat": 4, "nbformat_minor": 5,
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"},
                 "language_info": {"name": "python"}},
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Analysis\n", "\n", "Some *numbers* and a picture."]},
        {"cell_type": "code", "execution_count": 1, "metadata": {}, "source": "total = sum(range(10))\nprint(total)",
         "outputs": [{"output_type": "stream", "name": "stdout", "text": ["45\n"]}]},
        {"cell_type": "code", "execution_count": 2, "metadata": {}, "source": "plot()",
         "outputs": [{"output_type": "display_data", "metadata": {},
                      "data": {"image/png": base64.b64encode(picture).decode(), "text/plain": ["<Figure>"]}}]},
        {"cell_type": "code", "execution_count": 3, "metadata": {}, "source": "1 / 0",
         "outputs": [{"output_type": "error", "ename": "ZeroDivisionError", "evalue": "division by zero",
                      "traceback": ["\u001b[0;31mZeroDivisionError\u001b[0m Traceback", "\u001b[0;32m----> 1\u001b[0m 1 / 0"]}]},
        {"cell_type": "code", "execution_count": 4, "metadata": {}, "source": "table",
         "outputs": [{"output_type": "execute_result", "execution_count": 4, "metadata": {},
                      "data": {"text/html": ["<table><tr><td>x</td></tr></table>"]}}]},
        {"cell_type": "markdown", "metadata": {}, "source": "## Done"},
    ],
}
(out / "analysis.ipynb").write_text(json.dumps(notebook, indent=1), encoding="utf-8")
(out / "broken.ipynb").write_text('{"cells": [{"cell_type": "code", "source": 5}], "nbformat": 4}', encoding="utf-8")
print("data samples written to", out)
