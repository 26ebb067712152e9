#!/usr/bin/env python3
"""How often `quire info` names the same type as `gio info` (what GIO file managers show).

Usage: type-agreement.py QUIRE DIR... [--limit N] [--show N]

Walks the DIRs (regular files only, no symlinks), runs `gio info -a standard::content-type` and
`quire info --json` on them in batches of 200, and prints the agreement and the most common
disagreements (gio type → quire type, count, one example). Standard library only; file names are
passed as argv entries, never through a shell.
"""
import collections, json, os, subprocess, sys

args = sys.argv[1:]
limit, show = 20000, 25
if "--limit" in args:
    i = args.index("--limit"); limit = int(args[i + 1]); del args[i:i + 2]
if "--show" in args:
    i = args.index("--show"); show = int(args[i + 1]); del args[i:i + 2]
quire, roots = args[0], args[1:]

files = []
for root in roots:
    for directory, subdirectories, names in os.walk(root):
        subdirectories.sort()
        for name in sorted(names):
            path = os.path.join(directory, name)
            if os.path.isfile(path) and not os.path.islink(path) and os.access(path, os.R_OK):
                files.append(path)
files = files[:limit]

def gio(batch):
    out = subprocess.run(["gio", "info", "-a", "standard::content-type", "--"] + batch,
                         capture_output=True, text=True, errors="surrogateescape").stdout
    types, current = {}, None
    for line in out.splitlines():
        if line.startswith("local path: "):
            current = line[len("local path: "):]
        elif current and line.startswith("  standard::content-type: "):
            types[current] = line.split(": ", 1)[1]
    return types

def quire_types(batch):
    out = subprocess.run([quire, "info", "--json", "--timeout", "20", "--"] + batch,
                         capture_output=True).stdout
    return [record.get("mimeType") for record in json.loads(out)]

agree, total, pairs = 0, 0, collections.Counter()
example = {}
for start in range(0, len(files), 200):
    batch = files[start:start + 200]
    by_gio = gio(batch)
    for path, mime in zip(batch, quire_types(batch)):
        if path not in by_gio or mime is None:
            continue
        total += 1
        if mime == by_gio[path]:
            agree += 1
        else:
            pairs[(by_gio[path], mime)] += 1
            example.setdefault((by_gio[path], mime), path)
print(f"{agree}/{total} files agree ({100.0 * agree / max(total, 1):.2f}%)")
for (g, q), count in pairs.most_common(show):
    print(f"{count:6d}  gio {g:40s} quire {q:40s} e.g. {example[(g, q)]}")
