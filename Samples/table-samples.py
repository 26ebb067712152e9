#!/usr/bin/env python3
"""Delimited-text samples for Quire's own table engine (issue 38), written with Python's csv module.

tables/people.csv        comma, UTF-8, a header; integer, text, date, decimal columns; a quoted comma
tables/measures.tsv      tab-separated, a header, numbers
tables/latin1-semicolon.csv  ';'-separated in Latin-1 (accents as single bytes), decimal commas
tables/utf16.csv         UTF-16 little-endian with its byte-order mark
tables/utf16be.csv       UTF-16 big-endian with its byte-order mark
tables/bom.csv           UTF-8 with a byte-order mark
tables/pipes.psv         '|'-separated
tables/quoted-newlines.csv   cells holding line ends, separators and doubled quotes
tables/ragged.csv        rows with fewer and more cells than the header
tables/nul-byte.csv      one NUL byte inside a cell
tables/no-header.csv     numbers only, no header row
tables/long-line.csv     a header, two rows, then a 2 MiB line without a line end
tables/unclosed-quote.csv    a quote opened on row 3 and never closed, 2 MiB on
tables/many-rows.csv     a header and 100,000 rows (about 3.5 MB)
tables/mixed-encoding.csv    UTF-8, with one Latin-1 byte on row 5,000 (after the sample)
"""
import csv
import io
import sys
from pathlib import Path

out = Path(sys.argv[1]) / "tables"
out.mkdir(parents=True, exist_ok=True)

cities = ["Zürich", "Lyon", "Kraków", "Porto", "Bergen", "Paris, France"]


def people(count):
    rows = [["id", "name", "born", "height", "city"]]
    for n in range(1, count + 1):
        rows.append([str(n), f"Person {n:04d}", f"19{50 + n % 50:02d}-{1 + n % 12:02d}-{1 + n % 28:02d}",
                     f"{150 + (n * 7) % 50}.{n % 10}", cities[n % len(cities)]])
    return rows


def write(name, rows, encoding="utf-8", **dialect):
    with open(out / name, "w", encoding=encoding, newline="") as f:
        csv.writer(f, lineterminator="\n", **dialect).writerows(rows)


write("people.csv", people(500))
write("measures.tsv", [["station", "temperature", "rain"]] + [[f"S{n}", f"{-5 + n % 30}.{n % 10}", str(n % 13)] for n in range(300)],
      delimiter="\t")
write("latin1-semicolon.csv", [["Nom", "Ville", "Montant"]] + [[f"Élève {n}", ["Genève", "Besançon", "Orléans"][n % 3], f"{n},{n % 100:02d}"] for n in range(200)],
      encoding="latin-1", delimiter=";")
write("utf16.csv", people(100), encoding="utf-16-le")
(out / "utf16.csv").write_bytes(b"\xff\xfe" + (out / "utf16.csv").read_bytes())
write("utf16be.csv", people(100), encoding="utf-16-be")
(out / "utf16be.csv").write_bytes(b"\xfe\xff" + (out / "utf16be.csv").read_bytes())
write("bom.csv", people(50), encoding="utf-8-sig")
write("pipes.psv", people(50), delimiter="|")
write("quoted-newlines.csv", [["id", "note", "author"],
                              ["1", "first line\nsecond line", "Ann"],
                              ["2", 'she said "hi", then left', "Bob"],
                              ["3", "a\r\nwindows break", "Cy"],
                              ["4", "plain", "Di"]])
write("ragged.csv", [["a", "b", "c"], ["1", "2"], ["3", "4", "5", "6", "7"], ["8"], ["9", "10", "11"]])
with open(out / "nul-byte.csv", "wb") as f:
    f.write(b"id,name\n1,before\x00after\n2,plain\n")
write("no-header.csv", [[str(n), str(n * n), f"{n / 7:.3f}"] for n in range(1, 101)])
with open(out / "long-line.csv", "wb") as f:
    f.write(b"id,value\n1,one\n2,two\n" + b"x" * (2 << 20))
with open(out / "unclosed-quote.csv", "wb") as f:
    f.write(b"id,value\n1,one\n2,\"never closed\n" + b"y,z\n" * (1 << 19))
write("many-rows.csv", people(100_000))
with open(out / "mixed-encoding.csv", "wb") as f:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(people(10_000))
    lines = buffer.getvalue().encode("utf-8").split(b"\n")
    lines[5000] = lines[5000].replace(b"Person", b"Caf\xe9")
    f.write(b"\n".join(lines))
