#!/usr/bin/env python3
"""Whole-process timing of command lines taking turns, for side-by-side figures in one run.

    python3 Benchmarks/alternate.py RUNS 'CMD1 ARGS' 'CMD2 ARGS' ...

Each command line (split as a shell would, no shell run) is started with posix_spawn, its output sent to /dev/null,
10 times as a warm-up, then RUNS times in turns with the others, so that a change in the machine's load hits all of
them alike. Prints, per command line: wall-clock median and minimum, CPU (user + system, from wait4) median and
minimum, and minor page faults; then the load average. A command that exits non-zero stops the run.
"""
import os
import shlex
import statistics
import sys
import time


def once(argv, null):
    start = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ,
                          file_actions=[(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)])
    _, status, usage = os.wait4(pid, 0)
    if status != 0:
        sys.exit(f"{' '.join(argv)}: exit status {status}")
    return (time.perf_counter() - start) * 1000, (usage.ru_utime + usage.ru_stime) * 1000, usage.ru_minflt


def main():
    if len(sys.argv) < 3 or not sys.argv[1].isdigit():
        sys.exit(__doc__)
    runs, lines = int(sys.argv[1]), [shlex.split(line) for line in sys.argv[2:]]
    null = os.open(os.devnull, os.O_WRONLY)
    for argv in lines:
        for _ in range(10):
            once(argv, null)
    samples = [[] for _ in lines]
    for _ in range(runs):
        for index, argv in enumerate(lines):
            samples[index].append(once(argv, null))
    for argv, runs_of in zip(lines, samples):
        wall, cpu, faults = zip(*runs_of)
        print(f"{' '.join(argv)[:80]}: wall median {statistics.median(wall):.2f} ms, min {min(wall):.2f}; "
              f"cpu median {statistics.median(cpu):.2f}, min {min(cpu):.2f}; faults {statistics.median(faults):.0f}")
    print("load average", " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
