#!/usr/bin/env python3
"""Delimited-text samples for "CSV as a spreadsheet on request" (issue 26).

table.csv: a header and 300 rows of three comma-separated columns (quoted fields, one with a
comma inside, UTF-8 accents) — more than one printed page in LibreOffice Calc.
table-semicolon.csv: the same rows separated by semicolons (as European spreadsheets write CSV).
table.tsv: the same rows separated by tabs.
"""
import sys
from pathlib import Path

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)

header = ["Item", "City", "Amount"]
cities = ["Zürich", "Lyon", "Kraków", "Porto", "Bergen"]
rows = [[f"Item {n:03d}", cities[n % len(cities)], str(n * 7 % 1000)] for n in range(1, 301)]
rows[4][1] = "Paris, France"   # a quoted field holding the separator


def line(fields, separator):
    def quoted(field):
        return f'"{field}"' if separator in field or '"' in field else field
    return separator.join(quoted(f) for f in fields) + "\n"


for name, separator in [("table.csv", ","), ("table-semicolon.csv", ";"), ("table.tsv", "\t")]:
    with open(out / name, "w", encoding="utf-8", newline="") as f:
        for fields in [header] + rows:
            f.write(line(fields, separator))
