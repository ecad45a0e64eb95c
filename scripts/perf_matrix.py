#!/usr/bin/env python3
"""The performance matrix: two `sssp` binaries, old and new, over a fixed set of graphs.

Called by scripts/perf-matrix.sh, which documents the interface. For every row it runs
`BIN bench GRAPH --algos auto --trials T --json` alternately with the old and the new binary,
ROUNDS times each (the order flips every round, so neither side always runs on a warmer
machine), then a fixed sweep of configurations with the new binary, and writes
OUT/matrix.md (the table) and OUT/raw.jsonl (every JSON line the binaries printed, tagged with
the row, the side and the round).

Each bench process reports the median over its T trials (seeded sources, every trial
certified). A side's time for a row is the median of its ROUNDS process medians, and its spread
the range of those. A row counts as slower when every new round is slower than every old round
(the ranges do not overlap): "slower beyond its spread", docs/architecture.md's rule.
"""

import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

# The rows: (name, graph). A graph is a file under DATA, or `gen:SPEC`, which is generated once
# into CACHE as a .bin file (loads in the rounds then read it instead of generating it again).
GPU_ROWS = [
    ("NY", "data:road/USA-road-d.NY.gr.gz"),
    ("road 1M", "gen:road:1000000"),
    ("road 4M", "gen:road:4000000"),
    ("road 24M", "gen:road:24000000"),
    ("grid2d 2000^2", "gen:grid2d:2000x2000"),
    ("grid3d 256^3", "gen:grid3d:256x256x256"),
    ("uniform 2^22 x 8", "gen:uniform:4194304:8"),
    ("uniform 2^24 x 16", "gen:uniform:16777216:16"),
    ("uniform 2^26 x 16", "gen:uniform:67108864:16"),
    ("kron 16", "gen:kron:16"),
    ("kron 18", "gen:kron:18"),
    ("kron 20", "gen:kron:20"),
    ("kron 22", "gen:kron:22"),
    ("kron 24", "gen:kron:24"),
    ("kron 26", "gen:kron:26"),
    ("luxembourg (road)", "data:road/luxembourg_osm.mtx.gz"),
    ("web-NotreDame (web)", "data:web-NotreDame.txt.gz"),
    ("ca-CondMat (social)", "data:ca-CondMat.txt.gz"),
]

# The same families at sizes that finish in a few minutes on 2 cores (QUICK=1 DEVICE=cpu).
QUICK_ROWS = [
    ("NY", "data:road/USA-road-d.NY.gr.gz"),
    ("road 40k", "gen:road:40000"),
    ("road 150k", "gen:road:150000"),
    ("road 600k", "gen:road:600000"),
    ("grid2d 400^2", "gen:grid2d:400x400"),
    ("grid3d 48^3", "gen:grid3d:48x48x48"),
    ("uniform 2^15 x 8", "gen:uniform:32768:8"),
    ("uniform 2^16 x 16", "gen:uniform:65536:16"),
    ("uniform 2^17 x 16", "gen:uniform:131072:16"),
    ("kron 10", "gen:kron:10"),
    ("kron 11", "gen:kron:11"),
    ("kron 12", "gen:kron:12"),
    ("kron 13", "gen:kron:13"),
    ("kron 14", "gen:kron:14"),
    ("kron 15", "gen:kron:15"),
    ("luxembourg (road)", "data:road/luxembourg_osm.mtx.gz"),
    ("web-NotreDame (web)", "data:web-NotreDame.txt.gz"),
    ("ca-CondMat (social)", "data:ca-CondMat.txt.gz"),
]

# The fixed sweep behind `best`: the frontier strategies under both balance modes that `auto`
# picks between, at half, one, four and eight times the heuristic width (the widths it uses),
# with `auto` itself in the same process: auto/best compares runs over the same sources. Skewed
# graphs skip virtual warps, which serialise a hub per warp (kron 16: 41 ms against 0.66 for
# partition balance on the H100) and would make the sweep the matrix's longest part.
SWEEP_ALGOS = "auto,workfront,near-far,bucketing"
SWEEP_DELTAS = "0.5x,1x,4x,8x"


def env(name, default=None):
    v = os.environ.get(name)
    return v if v not in (None, "") else default


def log(msg):
    print(msg, file=sys.stderr, flush=True)


class Matrix:
    def __init__(self, out):
        self.out = Path(out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.old = env("OLD")
        self.new = env("NEW")
        if not self.old or not self.new:
            sys.exit("perf-matrix: set OLD=BIN and NEW=BIN (sssp binaries to compare)")
        for b in (self.old, self.new):
            if not os.access(b, os.X_OK):
                sys.exit(f"perf-matrix: {b} is not an executable file")
        self.device = env("DEVICE", "gpu")
        if self.device not in ("gpu", "cpu"):
            sys.exit("perf-matrix: DEVICE must be gpu or cpu")
        self.quick = env("QUICK", "0") == "1"
        self.rounds = int(env("ROUNDS", "3"))
        self.trials = int(env("TRIALS", "5"))
        self.sweep_trials = int(env("SWEEP_TRIALS", "3"))
        self.data = Path(env("DATA", str(Path(__file__).resolve().parent.parent.parent / "shared" / "data")))
        self.cache = Path(env("CACHE", os.path.join(os.environ.get("TMPDIR", "/tmp"), "sssp-matrix-graphs")))
        rows = QUICK_ROWS if self.quick else GPU_ROWS
        pattern = env("ROWS")
        if pattern:
            rows = [r for r in rows if re.search(pattern, r[0])]
        self.rows = rows
        self.raw = open(self.out / "raw.jsonl", "w")

    def graph_path(self, spec):
        """The file a row's bench processes read (generated into the cache on first use)."""
        if spec.startswith("data:"):
            p = self.data / spec[5:]
            if not p.exists():
                return None
            return str(p)
        name = spec[4:].replace(":", "_")
        path = self.cache / f"{name}.bin"
        if not path.exists():
            self.cache.mkdir(parents=True, exist_ok=True)
            tmp = self.cache / f"{name}.tmp.bin"
            t = time.time()
            subprocess.run([self.new, "gen", spec[4:], "-o", str(tmp), "--seed", "1"], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            tmp.rename(path)
            log(f"  generated {spec} in {time.time() - t:.1f} s")
        return str(path)

    def bench(self, binary, graph, args, tag):
        """JSON rows of one bench process, each tagged and kept in raw.jsonl."""
        cmd = [binary, "bench", graph, "--device", self.device, "--json"] + args
        t = time.time()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            log(f"  FAILED ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-2000:]}")
            return []
        rows = []
        for line in p.stdout.splitlines():
            if line.startswith("{"):
                r = json.loads(line)
                r.update(tag)
                r["wall_s"] = round(time.time() - t, 2)
                self.raw.write(json.dumps(r) + "\n")
                rows.append(r)
        self.raw.flush()
        return rows

    def run_row(self, name, spec):
        graph = self.graph_path(spec)
        if graph is None:
            log(f"{name}: {spec} not found, skipped")
            return None
        t = time.time()
        times = {"old": [], "new": []}
        pick = None
        for r in range(self.rounds):
            order = ("old", "new") if r % 2 == 0 else ("new", "old")
            for side in order:
                binary = self.old if side == "old" else self.new
                rows = self.bench(binary, graph, ["--algos", "auto", "--trials", str(self.trials)],
                                  {"row": name, "side": side, "round": r})
                if rows:
                    times[side].append(rows[0]["median_ms"])
                    if side == "new":
                        pick = rows[0].get("chosen")
        skewed = pick is not None and "skewed" in pick
        sweep = self.bench(self.new, graph, [
            "--algos", SWEEP_ALGOS, "--balance", "partition" if skewed else "vwarp,partition",
            "--dedupe", "stamp", "--deltas", SWEEP_DELTAS, "--trials", str(self.sweep_trials)],
            {"row": name, "side": "sweep", "round": 0})
        log(f"{name}: {time.time() - t:.1f} s")
        return {"name": name, "graph": spec, "pick": pick, "old": times["old"], "new": times["new"],
                "sweep": sweep}

    def run(self):
        started = time.time()
        results = []
        for name, spec in self.rows:
            res = self.run_row(name, spec)
            if res is not None:
                results.append(res)
        self.raw.close()
        table = render(results, self.describe(time.time() - started))
        (self.out / "matrix.md").write_text(table)
        print(table)
        return 0 if all(r["old"] and r["new"] for r in results) else 1

    def describe(self, seconds):
        return {
            "device": self.device,
            "quick": self.quick,
            "rounds": self.rounds,
            "trials": self.trials,
            "sweep_trials": self.sweep_trials,
            "old": self.old,
            "new": self.new,
            "seconds": seconds,
        }


def short_pick(chosen):
    """`auto: bucketing, vwarp, delta 108352 = 8 x heuristic (even degrees...; GPU)` ->
    `bucketing vwarp 8x`; a bare delta is the heuristic's (`1x`)."""
    if not chosen:
        return "?"
    s = chosen.removeprefix("auto: ").split(" (")[0]
    out = []
    for p in (p.strip() for p in s.split(",")):
        if not p.startswith("delta "):
            out.append(p.removesuffix(" balance"))
        elif "= heuristic / " in p:
            out.append(f"{1 / float(p.split('/')[-1]):g}x")
        elif "x heuristic" in p:
            out.append(p.split("=")[-1].replace(" x heuristic", "x").strip())
        elif "heuristic" not in p:
            out.append("1x")
        else:
            out.append(p)
    return " ".join(out)


# The smallest factor of SWEEP_DELTAS: the sweep's narrowest width, from which its labels are read.
SMALLEST_FACTOR = min(float(f.removesuffix("x")) for f in SWEEP_DELTAS.split(","))


def config_name(r, narrowest):
    """A sweep row's configuration: `near-far partition 4x` (`narrowest`: the sweep's smallest
    width, SMALLEST_FACTOR times the heuristic)."""
    if r["algo"] == "auto":
        return "auto"
    name = f"{r['algo']} {r['balance']}"
    if r.get("delta") is not None and r["algo"] in ("near-far", "bucketing") and narrowest:
        # Widths are whole numbers: a fraction of an odd heuristic is rounded, so round the
        # factor to a half.
        name += f" {round(r['delta'] / narrowest * SMALLEST_FACTOR * 2) / 2:g}x"
    return name


def span(xs):
    return f"{min(xs):.3g}-{max(xs):.3g}" if len(xs) > 1 else f"{xs[0]:.3g}"


def verdict(old, new):
    if min(new) > max(old):
        return "slower"
    if max(new) < min(old):
        return "faster"
    return "same"


def render(results, d):
    head = [
        "# Performance matrix",
        "",
        f"Device `{d['device']}`{' (quick sizes)' if d['quick'] else ''}; {d['rounds']} rounds of "
        f"`bench --algos auto --trials {d['trials']}` per side, alternating; sweep "
        f"`--algos {SWEEP_ALGOS} --deltas {SWEEP_DELTAS} --dedupe stamp --trials {d['sweep_trials']}` "
        f"with the new binary, `auto` among them (auto/best: both from that process, same sources). "
        f"ms: median of the rounds' medians (range over rounds). "
        f"old: `{d['old']}`, new: `{d['new']}`."
        + (f" {d['seconds'] / 60:.1f} min." if d["seconds"] is not None else ""),
        "",
        "| graph | auto's pick (new) | old ms | new ms | new/old | verdict | best of the sweep | best ms | auto/best |",
        "|---|---|---:|---:|---:|---|---|---:|---:|",
    ]
    lines = []
    for r in results:
        if not r["old"] or not r["new"]:
            lines.append(f"| {r['name']} | {short_pick(r['pick'])} | failed | | | | | | |")
            continue
        old, new = statistics.median(r["old"]), statistics.median(r["new"])
        deltas = [s["delta"] for s in r["sweep"] if s["algo"] in ("near-far", "bucketing") and s.get("delta")]
        narrowest = min(deltas) if deltas else None
        cands = [(s["median_ms"], config_name(s, narrowest)) for s in r["sweep"]]
        auto = [ms for ms, name in cands if name == "auto"]
        if not auto:
            best, best_ms, ratio = "sweep failed", float("nan"), float("nan")
        else:
            best_ms, best = min(cands)
            ratio = auto[0] / best_ms
        lines.append(
            f"| {r['name']} | {short_pick(r['pick'])} | {old:.3f} ({span(r['old'])}) | "
            f"{new:.3f} ({span(r['new'])}) | {new / old:.2f} | {verdict(r['old'], r['new'])} | "
            f"{best} | {best_ms:.3f} | {ratio:.2f} |"
        )
    return "\n".join(head + lines) + "\n"


def results_from_raw(path):
    """The rows of a matrix run, read back from its raw.jsonl (to render its table again)."""
    rows = {}
    for line in open(path):
        r = json.loads(line)
        row = rows.setdefault(r["row"], {"name": r["row"], "pick": None, "old": [], "new": [], "sweep": []})
        if r["side"] == "sweep":
            row["sweep"].append(r)
        else:
            row[r["side"]].append(r["median_ms"])
            if r["side"] == "new":
                row["pick"] = r.get("chosen")
    return list(rows.values())


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--render":
        # `perf_matrix.py --render OUT/raw.jsonl`: the table of a finished run, printed again
        # (same settings as the run's; its header's binaries and minutes are not in the raw).
        res = results_from_raw(sys.argv[2])
        rounds = max(len(r["old"]) for r in res)
        d = {"device": env("DEVICE", "gpu"), "quick": env("QUICK", "0") == "1", "rounds": rounds,
             "trials": int(env("TRIALS", "5")), "sweep_trials": int(env("SWEEP_TRIALS", "3")),
             "old": env("OLD", "old"), "new": env("NEW", "new"), "seconds": None}
        sys.stdout.write(render(res, d))
        sys.exit(0)
    if len(sys.argv) != 2:
        sys.exit("usage: OLD=BIN NEW=BIN [DEVICE=gpu|cpu] [QUICK=1] [ROUNDS=k] scripts/perf-matrix.sh OUT")
    sys.exit(Matrix(sys.argv[1]).run())
