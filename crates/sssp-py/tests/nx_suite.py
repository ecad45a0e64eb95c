#!/usr/bin/env python
"""Run NetworkX's own tests under the "sssp" backend.

NetworkX's documented backend test mode (networkx/conftest.py, networkx/utils/backends.py):
with ``NETWORKX_TEST_BACKEND=sssp`` every dispatchable call in NetworkX's tests (the tests'
own calls and the calls NetworkX's algorithms make internally) converts its graphs to the
backend and runs there; with ``NETWORKX_FALLBACK_TO_NX=True`` a call the backend does not
implement, or refuses (``can_run`` False, or ``NotImplementedError``), runs NetworkX's own code.

    python tests/nx_suite.py                  # the modules below
    python tests/nx_suite.py -x -k radius     # extra arguments go to pytest
    SSSP_NX_SUITE_JOBS=1 python tests/nx_suite.py   # one process

The tests run in two processes by default (SSSP_NX_SUITE_JOBS, at most the CPU count), each
taking every other test; their outputs follow each other. At the end it prints how many calls
of each implemented function ran on sssp and how many NetworkX ran (with the reasons), the
skips, and the totals. The exit status is pytest's (0: everything passed).

Skips: NetworkX tests that fail under the backend only because another, equally short path
is returned (a tie broken differently) are skipped, each listed in SKIPS below with its reason
(and printed at the end of the run).
"""

import collections
import json
import logging
import os
import re
import subprocess
import sys
import tempfile

os.environ["NETWORKX_TEST_BACKEND"] = "sssp"
os.environ["NETWORKX_FALLBACK_TO_NX"] = "True"

import pytest  # noqa: E402

# NetworkX's tests of the implemented functions, and of algorithms that call them internally.
MODULES = [
    "networkx.algorithms.shortest_paths",  # test_weighted, test_generic, test_unweighted, ...
    "networkx.algorithms.tests.test_distance_measures",  # diameter, radius (+ 500 random graphs)
    "networkx.algorithms.centrality.tests.test_closeness_centrality",
    "networkx.algorithms.centrality.tests.test_harmonic_centrality",
    "networkx.algorithms.centrality.tests.test_reaching",
    "networkx.algorithms.approximation.tests.test_steinertree",
    "networkx.algorithms.approximation.tests.test_distance_measures",
    "networkx.algorithms.tests.test_dag",
    "networkx.algorithms.tests.test_cycles",
    "networkx.algorithms.tests.test_simple_paths",  # shortest_simple_paths
    "networkx.algorithms.tests.test_threshold",
    "networkx.algorithms.flow.tests.test_gomory_hu",
    "networkx.generators.tests.test_ego",
    "networkx.generators.tests.test_small",
]

# test file name::class::test -> why it is skipped. Every entry is a
# test that fails only because sssp returns another shortest path of the same length (or
# equally long paths in another order).
_MCB = (
    "minimum_cycle_basis finds the same cycles (same nodes, same weights) but lists some in the "
    "opposite direction: each comes from nx.shortest_path(Gi, n, (n, 1)) in a lifted graph, "
    "where going round the cycle either way is a tie, and sssp returns the other of the two "
    "equally short paths; the test compares the exact node lists"
)
_YEN_TIES = (
    "shortest_simple_paths yields every path of the grid in nondecreasing length, but the test "
    "expects NetworkX's second path [1, 5, 6, 7, 8, 12] among several of length 5; sssp yields "
    "equally long paths with fewer edges first, then in lexicographic order of the nodes' "
    "positions in list(G) ([1, 2, 3, 7, 8, 12] first), while NetworkX's order among them is its "
    "heap's"
)
SKIPS = {
    "test_simple_paths.py::test_shortest_simple_paths": _YEN_TIES,
    "test_simple_paths.py::test_shortest_simple_paths_directed_with_weight_function": _YEN_TIES,
    "test_cycles.py::TestMinimumCycleBasis::test_unweighted_diamond": _MCB,
    "test_cycles.py::TestMinimumCycleBasis::test_weighted_diamond": _MCB,
    "test_cycles.py::TestMinimumCycleBasis::test_petersen_graph": _MCB,
    "test_cycles.py::TestMinimumCycleBasis::test_gh6787_and_edge_attribute_names": _MCB,
}

IMPLEMENTED = None  # filled from the backend's info


class _Calls(logging.Handler):
    """Counts NetworkX's dispatch log records: calls run by sssp, and calls NetworkX ran."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.ran = collections.Counter()
        self.fell_back = collections.Counter()
        self.reasons = collections.defaultdict(collections.Counter)

    def emit(self, record):
        msg, args = record.msg, record.args or ()
        if not isinstance(msg, str) or len(args) < 2 or args[0] != "sssp":
            return
        name = args[1]
        if name not in IMPLEMENTED:
            return
        if msg.startswith("Using backend"):
            self.ran[name] += 1
        elif msg.startswith("Backend '%s' raised when calling"):  # NotImplementedError
            self.ran[name] -= 1
            self.fell_back[name] += 1
            self.reasons[name][str(args[2]).split(" (")[0][:110]] += 1
        elif msg.startswith("Backend '%s' can't run"):  # can_run said no
            self.fell_back[name] += 1
            self.reasons[name][str(args[3]).removeprefix(", because: ") or "can_run"] += 1


class Plugin:
    def __init__(self, shard=None):
        self.calls = _Calls()
        self.shard = shard  # (i, k): run the i-th of every k collected tests
        self.stats = {}

    def pytest_configure(self, config):
        log = logging.getLogger("networkx.utils.backends")
        log.setLevel(logging.DEBUG)
        log.propagate = False  # keep pytest's log capture out of it (speed)
        log.addHandler(self.calls)

    def pytest_collection_modifyitems(self, config, items):
        for item in items:
            # with --pyargs the nodeids lose their file part: key on file name + test name
            key = item.path.name + item.nodeid[item.nodeid.index("::") :]
            if key in SKIPS:
                item.add_marker(pytest.mark.skip(reason=f"sssp: {SKIPS[key]}"))
        if self.shard is not None:
            i, k = self.shard
            keep = items[i::k]
            config.hook.pytest_deselected(items=[x for j, x in enumerate(items) if j % k != i])
            items[:] = keep

    def pytest_terminal_summary(self, terminalreporter):
        self.stats = {
            key: len(terminalreporter.stats.get(key, ()))
            for key in ("passed", "failed", "skipped", "error", "xfailed", "xpassed", "deselected")
        }


def _report(calls, stats, out=sys.stdout):
    w = out.write
    w("\n=== calls of the implemented functions in NetworkX's tests (sssp backend) ===\n")
    for name in sorted(IMPLEMENTED):
        ran, back = calls["ran"].get(name, 0), calls["fell_back"].get(name, 0)
        if not ran and not back:
            w(f"{name:40s} not called\n")
            continue
        w(f"{name:40s} ran on sssp {ran:6d}   ran by NetworkX {back:5d}\n")
        for reason, k in sorted(calls["reasons"].get(name, {}).items(), key=lambda kv: -kv[1]):
            w(f"{'':44s}{k:5d} x {reason}\n")
    w(f"\n=== skips listed in {os.path.basename(__file__)}: {len(SKIPS)} ===\n")
    for nodeid, reason in SKIPS.items():
        w(f"  {nodeid}: {reason}\n")
    w("\n=== NetworkX suite under sssp: " + ", ".join(f"{v} {k}" for k, v in stats.items() if v) + " ===\n")


def _run(argv, shard=None):
    """Run pytest (one shard of it); returns (exit code, calls, stats)."""
    plugin = Plugin(shard)
    args = ["--pyargs", *MODULES, "-q", "-rs", "-p", "no:cacheprovider", *argv]
    code = int(pytest.main(args, plugins=[plugin]))
    c = plugin.calls
    calls = {
        "ran": dict(c.ran),
        "fell_back": dict(c.fell_back),
        "reasons": {k: dict(v) for k, v in c.reasons.items()},
    }
    return code, calls, plugin.stats


def main(argv):
    global IMPLEMENTED
    import sssp.nx

    IMPLEMENTED = set(sssp.nx.FUNCTIONS)
    shard = os.environ.get("SSSP_NX_SUITE_SHARD")
    if shard:  # a worker: run one shard, leave the counts for the parent
        i, k = map(int, shard.split("/"))
        code, calls, stats = _run(argv, (i, k))
        with open(os.environ["SSSP_NX_SUITE_OUT"], "w") as f:
            json.dump({"code": code, "calls": calls, "stats": stats}, f)
        return code
    jobs = int(os.environ.get("SSSP_NX_SUITE_JOBS", min(2, os.cpu_count() or 1)))
    if jobs <= 1:
        code, calls, stats = _run(argv)
        _report(calls, stats)
        return code
    # NetworkX's tests in `jobs` processes, each running every jobs-th test
    with tempfile.TemporaryDirectory() as tmp:
        procs = []
        for i in range(jobs):
            env = dict(os.environ, SSSP_NX_SUITE_SHARD=f"{i}/{jobs}", SSSP_NX_SUITE_OUT=f"{tmp}/{i}.json")
            log = open(f"{tmp}/{i}.log", "w+")
            procs.append((subprocess.Popen([sys.executable, __file__, *argv], env=env, stdout=log, stderr=subprocess.STDOUT), log))
        results = []
        for i, (proc, log) in enumerate(procs):
            proc.wait()
            log.seek(0)
            sys.stdout.write(f"\n--- shard {i + 1} of {jobs} ---\n")
            sys.stdout.write("".join(line for line in log if not _NOISE.match(line)))
            log.close()
            try:
                with open(f"{tmp}/{i}.json") as f:
                    results.append(json.load(f))
            except (OSError, ValueError):
                results.append({"code": proc.returncode or 3, "calls": {}, "stats": {}})
    calls = {"ran": collections.Counter(), "fell_back": collections.Counter(), "reasons": {}}
    stats = collections.Counter()
    for r in results:
        for key in ("ran", "fell_back"):
            calls[key].update(r["calls"].get(key, {}))
        for name, reasons in r["calls"].get("reasons", {}).items():
            calls["reasons"].setdefault(name, collections.Counter()).update(reasons)
        stats.update(r["stats"])
    stats = {k: v for k, v in stats.items() if k != "deselected"}  # each shard deselects the others
    _report(calls, stats)
    codes = [r["code"] for r in results]
    return max(codes) if any(codes) else 0


# progress dots and the native module's debug lines, left out of the shards' logs
_NOISE = re.compile(r"^(\.|s|F|E|x)+( +\[ *\d+%\])?$|^(heads|csr|pick) ")

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
