#!/usr/bin/env python3
"""Times commands side by side, round-robin: run 1 of each, then run 2 of each, and so on.

This VM's speed drifts by up to ±30% over a minute, so commands timed one after another
(hyperfine's order: all runs of the first, then all of the second) can differ by the drift
alone. Interleaved, every command sees the same moments, and the ratio of medians holds.

Usage: interleave.py RUNS [--prepare 'CMD'] [--env NAME=VALUE]... [--any-status] -- 'CMD1' -- 'CMD2' ...
Each CMD is split like a shell would split it (shlex) and started without a shell; its output
goes to /dev/null. --prepare runs before every timed run (not timed). Three untimed warm-up
runs per command come first. A run that exits non-zero counts as a failure unless --any-status
(for commands whose answer is their exit status). Prints one JSON object per command:
{"command": ..., "median_ms": ..., "mean_ms": ..., "stddev_ms": ..., "cpu_ms": ..., "failures": ...}
"""
import json
import os
import shlex
import statistics
import sys
import time


def main(argv):
    runs = int(argv[1])
    prepare, env, commands, index, any_status = None, dict(os.environ), [], 2, False
    while index < len(argv):
        word = argv[index]
        if word == "--prepare":
            prepare = shlex.split(argv[index + 1])
            index += 2
        elif word == "--env":
            name, _, value = argv[index + 1].partition("=")
            env[name] = value
            index += 2
        elif word == "--any-status":
            any_status = True
            index += 1
        elif word == "--":
            commands.append(shlex.split(argv[index + 1]))
            index += 2
        else:
            sys.exit("interleave.py: unexpected argument %r" % word)
    devnull = os.open(os.devnull, os.O_WRONLY)
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]

    def spawn(words):
        start = time.perf_counter()
        pid = os.posix_spawnp(words[0], words, env, file_actions=actions)
        _, status, usage = os.wait4(pid, 0)
        return (time.perf_counter() - start) * 1000, (usage.ru_utime + usage.ru_stime) * 1000, status

    def prepared(words):
        if prepare:
            spawn(prepare)
        return spawn(words)

    for words in commands:
        for _ in range(3):
            prepared(words)
    results = [[] for _ in commands]
    for _ in range(runs):
        for slot, words in enumerate(commands):
            results[slot].append(prepared(words))
    for words, samples in zip(commands, results):
        wall = [sample[0] for sample in samples]
        print(json.dumps({
            "command": " ".join(words),
            "median_ms": round(statistics.median(wall), 3),
            "mean_ms": round(statistics.mean(wall), 3),
            "stddev_ms": round(statistics.stdev(wall), 3) if len(wall) > 1 else 0.0,
            "cpu_ms": round(statistics.median(sample[1] for sample in samples), 3),
            "failures": 0 if any_status else sum(1 for sample in samples if sample[2] != 0),
        }))


if __name__ == "__main__":
    main(sys.argv)
