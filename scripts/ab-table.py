#!/usr/bin/env python3
"""The same-call A/B table of scripts/gpu-arch-ab.sh: python3 scripts/ab-table.py OUT [OLD NEW]

Reads OUT/*.txt (blocks headed `== LABEL: BIN bench ARGS`, then `sssp bench` rows), takes for
each row (section, algorithm, balance, dedupe, delta, A, wide, target) and binary the median of
its `median ms` over the rounds, and prints a Markdown table old / new / new-over-old, then the
rows slower by more than 3% and the geometric mean of the ratios."""
import glob
import math
import os
import statistics
import sys


def rows(path):
    label = binary = None
    for line in open(path):
        if line.startswith("== "):
            head, _, rest = line[3:].partition(": ")
            label, binary = head, rest.split()[0]
            continue
        t = line.split()
        # A bench row: seven key columns, then the median in ms.
        if label and len(t) >= 9 and not line.startswith(("algo", "device", "phast", "no usable")):
            try:
                ms = float(t[7])
            except ValueError:
                continue
            yield label, tuple(t[:7]), binary, ms


def main():
    out = sys.argv[1]
    old = sys.argv[2] if len(sys.argv) > 2 else ".gpuold/sssp-old"
    new = sys.argv[3] if len(sys.argv) > 3 else ".gpu/sssp"
    runs = {}
    for path in sorted(glob.glob(os.path.join(out, "*.txt"))):
        for label, key, binary, ms in rows(path):
            runs.setdefault((label, key), {}).setdefault(binary, []).append(ms)
    ratios, slow = [], []
    print("| section | algo balance dedupe | old ms (median of rounds) | new ms | new/old | rounds |")
    print("|---|---|---:|---:|---:|---:|")
    for (label, key), by in runs.items():
        if old not in by or new not in by:
            continue
        o, n = statistics.median(by[old]), statistics.median(by[new])
        r = n / o
        ratios.append(r)
        name = f"{label} | {key[0]} {key[1]} {key[2]}"
        print(f"| {name} | {o:.3f} | {n:.3f} | {r:.3f} | {len(by[new])} |")
        if r > 1.03:
            slow.append(f"{name}: {r:.3f}")
    if ratios:
        gm = math.exp(sum(map(math.log, ratios)) / len(ratios))
        print(f"\n{len(ratios)} rows, geometric mean new/old {gm:.3f}; slower by more than 3%: {len(slow)}")
        for s in slow:
            print(f"- {s}")


if __name__ == "__main__":
    main()
