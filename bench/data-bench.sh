#!/bin/bash
# Usage: bench/data-bench.sh QUIRE [RUNS] — issue 38's figures for notes and data, each file
# written by this script into a temporary directory (removed at the end):
#  - a 1 MB Markdown file: `quire preview` of page 1 (a PNG), wall time;
#  - a 5 MB notebook with PNG outputs: `quire preview` of page 1 (its first cells), against
#    `jupyter nbconvert --to html` on the same file (Debian's jupyter-nbconvert);
#  - a 1 GB SQLite database (Python's sqlite3): `quire info`, wall time and peak RSS.
# RUNS runs each (default 5): min and median printed. Prints numbers; never fails on one.
set -u
Q=$1; RUNS=${2:-5}
DIR=$(mktemp -d "${TMPDIR:-/tmp}/quire-data-bench.XXXXXX")
trap 'rm -rf "$DIR"' EXIT

# timed COMMAND...: RUNS wall times in ms (output discarded), "min X ms, median Y ms".
timed() {
    local all=() i start end
    for ((i = 0; i < RUNS; i++)); do
        start=$(date +%s%N)
        "$@" > /dev/null 2>&1
        end=$(date +%s%N)
        all+=($(( (end - start) / 1000000 )))
    done
    printf '%s\n' "${all[@]}" | sort -n | awk '{v[NR]=$1} END {printf "min %d ms, median %d ms (%d runs)\n", v[1], v[int((NR+1)/2)], NR}'
}

python3 - "$DIR" <<'EOF'
import base64, json, random, struct, sys, zlib
out = sys.argv[1]
# Markdown: every construct, repeated to 1 MB.
block = """# Section {n}

Some *emphasis*, **strong text**, `inline code`, ~~struck~~ and a [link](https://example.org/{n}).
A paragraph long enough to wrap across the page's width, with words and words and words and more
words in it, so that layout has something to do on every line of it.

- a list item
  - a nested item with `code`
- [ ] a task
- [x] a task done

> A quoted line that goes on for a while, quoted.

| Name | City | Amount |
|------|------|-------:|
| Ada  | Zürich | {n} |
| Linus | Helsinki | 7 |

```python
def answer(n):
    return {n} * 2
```

---

"""
text, n = [], 0
size = 0
while size < 1 << 20:
    piece = block.replace("{n}", str(n))
    text.append(piece)
    size += len(piece.encode())
    n += 1
open(f"{out}/notes.md", "w").write("".join(text))

# A notebook of about 5 MB: Markdown and code cells, each code cell with a 256x192 PNG of noise
# (noise does not compress: about 150 kB each).
def png(width, height, seed):
    rnd = random.Random(seed)
    raw = b"".join(b"\0" + bytes(rnd.getrandbits(8) for _ in range(width * 3)) for _ in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))
cells = []
for i in range(34):
    cells.append({"cell_type": "markdown", "metadata": {}, "source": [f"## Step {i}\n", "Some *notes* on this step.\n"]})
    cells.append({"cell_type": "code", "execution_count": i + 1, "metadata": {},
                  "source": [f"plot(data[{i}])\n"],
                  "outputs": [{"output_type": "stream", "name": "stdout", "text": [f"step {i} done\n"]},
                              {"output_type": "display_data", "metadata": {},
                               "data": {"image/png": base64.b64encode(png(256, 192, i)).decode(), "text/plain": ["<Figure>"]}}]})
notebook = {"cells": cells, "nbformat": 4, "nbformat_minor": 5,
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                         "language_info": {"name": "python"}}}
json.dump(notebook, open(f"{out}/plots.ipynb", "w"))
EOF

echo "Markdown: $(stat -c %s "$DIR/notes.md") bytes"
echo "  quire preview -o page.png notes.md (page 1): $(timed "$Q" preview -o "$DIR/page.png" "$DIR/notes.md")"
echo "Notebook: $(stat -c %s "$DIR/plots.ipynb") bytes"
echo "  quire preview -o page.png plots.ipynb (page 1, its first cells): $(timed "$Q" preview -o "$DIR/page.png" "$DIR/plots.ipynb")"
if command -v jupyter-nbconvert > /dev/null || command -v jupyter > /dev/null; then
    NB=(jupyter nbconvert); command -v jupyter > /dev/null || NB=(jupyter-nbconvert)
    echo "  ${NB[*]} --to html plots.ipynb: $(timed "${NB[@]}" --to html --output-dir "$DIR/html" "$DIR/plots.ipynb")"
else
    echo "  jupyter nbconvert: not installed (Debian: jupyter-nbconvert)"
fi

echo "SQLite: writing about 1 GB with Python's sqlite3…"
python3 - "$DIR/big.sqlite" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA journal_mode = OFF")
db.execute("PRAGMA synchronous = OFF")
db.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, at TEXT, kind TEXT, note TEXT)")
db.execute("CREATE TABLE small (id INTEGER PRIMARY KEY, name TEXT)")
db.executemany("INSERT INTO small VALUES (?, ?)", ((n, f"name {n}") for n in range(100)))
rows = ((n, f"2024-{1 + n % 12:02d}-{1 + n % 28:02d}T12:{n % 60:02d}:00", ("open", "close", "move")[n % 3],
         f"an event note of some length, padded out to about eighty bytes here {n:012d}") for n in range(1, 8_500_001))
db.executemany("INSERT INTO events VALUES (?, ?, ?, ?)", rows)
db.commit()
db.close()
EOF
echo "  $(stat -c %s "$DIR/big.sqlite") bytes"
cat "$DIR/big.sqlite" > /dev/null
echo "  quire info big.sqlite: $(timed "$Q" info --max-file-size 2G "$DIR/big.sqlite")"
if command -v /usr/bin/time > /dev/null; then
    /usr/bin/time -f "  quire info: %e s, peak RSS %M kB" "$Q" info --max-file-size 2G "$DIR/big.sqlite" 2>&1 >/dev/null | tail -1
fi
"$Q" info --max-file-size 2G "$DIR/big.sqlite" 2>&1 | grep -i "rows\|events" | head -3 | sed 's/^/  /'
exit 0
