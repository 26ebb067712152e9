# Writes the CSV the table benchmarks time (bench/csv-bench.sh, bench/csv-window-bench.sh):
# a header and ROWS rows of six columns, about 100 bytes a row (10 million rows: 1.0 GB).
#
#   python3 bench/lib/csv-rows.py PATH ROWS
#
# Row n's name is Person-<n, 8 digits>: the scripts look for the first and last on screen.
import sys

path, rows = sys.argv[1], int(sys.argv[2])
cities = ["Zürich", "Lyon", "Kraków", "Porto", "Bergen", "\"Paris, France\""]
with open(path, "w", encoding="utf-8", newline="") as f:
    f.write("id,name,born,height,city,note\n")
    chunk = []
    for n in range(1, rows + 1):
        chunk.append(f"{n},Person-{n:08d},19{50 + n % 50:02d}-{1 + n % 12:02d}-{1 + n % 28:02d},"
                     f"{150 + n * 7 % 50}.{n % 10},{cities[n % 6]},a note of some fifty characters - padded out {n % 997:05d}\n")
        if len(chunk) == 100_000:
            f.write("".join(chunk))
            chunk = []
    f.write("".join(chunk))
