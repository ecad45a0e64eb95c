"""A seeded differential fuzzer of the scipy drop-ins' arguments: random graphs in every input
format and dtype, with random (often bad) arguments, run through sssp and through
scipy.sparse.csgraph itself. For each case either both raise, sssp with the exception class
scipy raises, or both return the same arrays (shape, dtype, values to the bit, NaN and inf
included). A case is replayable from its number: FUZZ_SEED and FUZZ_CASES set the run.

SSSP_TEST_DEVICE picks the device ("auto" by default; the GPU machine runs "gpu").
"""

import os
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg

import sssp

DEVICE = os.environ.get("SSSP_TEST_DEVICE", "auto")
SEED = int(os.environ.get("FUZZ_SEED", "1"))
CASES = int(os.environ.get("FUZZ_CASES", "2000"))

FUNCTIONS = ["dijkstra", "shortest_path", "bellman_ford", "johnson"]


def pick(rng, options):
    return options[int(rng.integers(len(options)))]


def matrix(rng):
    """A small graph in a random format and dtype: duplicates, explicit zeros, NaN, inf and
    negative entries now and then, and a wrong shape once in a while."""
    n = int(rng.integers(0, 9))
    m = int(rng.integers(0, 3 * n + 2))
    r, c = rng.integers(0, max(n, 1), m), rng.integers(0, max(n, 1), m)
    kind = pick(rng, ["int", "real", "zero", "signed", "special"])
    if kind == "int":
        w = rng.integers(1, 20, m).astype(float)
    elif kind == "real":
        w = rng.random(m) * 5
    elif kind == "zero":
        w = rng.integers(0, 2, m).astype(float)
    elif kind == "signed":
        w = rng.integers(-2, 9, m).astype(float)
    else:
        w = rng.choice([1.0, 0.0, np.inf, np.nan, 2.5, 1e308], m)
    dtype = pick(rng, [np.float64, np.float32, np.int64, np.int32, np.uint8, np.bool_])
    if dtype in (np.int64, np.int32, np.uint8):
        # Integers as a user would have them (a float64 1e308 cast to int64 is not input).
        w = np.clip(np.nan_to_num(w, posinf=7, neginf=-7, nan=3), -100, 100)
    with np.errstate(invalid="ignore", over="ignore"):
        w = w.astype(dtype)
    shape = (n, n) if rng.random() > 0.05 else (n, n + 1)
    if n == 0:
        return np.zeros(shape)
    A = sp.coo_matrix((w, (r, c)), shape=shape)
    fmt = pick(rng, ["csr", "csc", "coo", "array", "dense", "list"])
    return {
        "csr": A.tocsr,
        "csc": A.tocsc,
        "coo": lambda: A,
        "array": lambda: sp.csr_array(A),
        "dense": A.toarray,
        "list": lambda: A.toarray().tolist(),
    }[fmt]()


def arguments(rng, n, function):
    """Random keyword arguments for `function`, valid and not."""
    kw = {}
    if rng.random() < 0.7:
        kw["indices"] = pick(
            rng,
            [
                None,
                0,
                n - 1,
                n,
                -1,
                -n - 1,
                [0, 0],
                list(range(n)),
                np.array([[0, 1], [1, 0]]) % max(n, 1),
                np.int32(1) % max(n, 1),
                [],
                2.0,
                "0",
            ],
        )
    for key, p in (("directed", 0.4), ("return_predecessors", 0.5), ("unweighted", 0.2)):
        if rng.random() < p:
            kw[key] = bool(rng.random() < 0.5)
    if function == "dijkstra":
        if rng.random() < 0.4:
            kw["limit"] = pick(rng, [np.inf, 0.0, 3.0, 2.5, -1.0, np.nan, 1e300, 7])
        if rng.random() < 0.3:
            kw["min_only"] = True
    if function == "shortest_path" and rng.random() < 0.5:
        kw["method"] = pick(rng, ["auto", "D", "BF", "J", "FW", "XX"])
    return kw


def outcome(f, A, kw):
    """What a call gives: ("raise", class) or ("ok", tuple of arrays)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = f(A, **kw)
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return ("raise", type(e))
    return ("ok", out if isinstance(out, tuple) else (out,))


def same_arrays(a, b):
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        x, y = np.asarray(x), np.asarray(y)
        if x.shape != y.shape or x.dtype != y.dtype:
            return False
        if not np.array_equal(x, y, equal_nan=x.dtype.kind == "f"):
            return False
    return True


@pytest.mark.parametrize("block", range(4))
def test_arguments_behave_as_scipys(block):
    rng = np.random.default_rng([SEED, block])
    mismatches = []
    for case in range(CASES // 4):
        A = matrix(rng)
        n = len(A) if isinstance(A, list) else A.shape[0]
        function = pick(rng, FUNCTIONS)
        kw = arguments(rng, n, function)
        if negative(A) and (function == "dijkstra" or kw.get("method") == "D"):
            # Dijkstra on negative weights is undefined in scipy (its min_only path can run out
            # of memory on a negative cycle): sssp need only answer or raise, which it did.
            outcome(getattr(sssp, function), A, dict(kw, device=DEVICE))
            continue
        want = outcome(getattr(csg, function), A, kw)
        got = outcome(getattr(sssp, function), A, dict(kw, device=DEVICE))
        if want[0] == "raise" and want[1] is csg.NegativeCycleError and not negative(A) and got[0] == "ok":
            # scipy's Bellman-Ford reports a negative cycle where sums of weights near 1e308
            # overflow to inf on an undirected graph with no negative weight: sssp answers.
            continue
        if floyd_warshall(function, kw) and (negative(A) or not finite(A)):
            # scipy's Floyd-Warshall reads NaN and inf as no edge and ignores a negative
            # self-loop where its Dijkstra and Bellman-Ford do not; sssp answers as those do.
            continue
        if want[0] == "raise" and scipy_defect(want[1], A) is not None:
            want = outcome(getattr(csg, function), scipy_defect(want[1], A), kw)
        if want[0] != got[0]:
            mismatches.append((case, function, kw, want, got))
        elif want[0] == "raise" and not issubclass(got[1], want[1]):
            mismatches.append((case, function, kw, want, got))
        elif want[0] == "ok" and not same_distances(want[1], got[1], kw, floyd_warshall(function, kw)):
            mismatches.append((case, function, kw, "values differ", A))
    assert not mismatches, f"seed {SEED} block {block}: {len(mismatches)} cases, first: {mismatches[:3]}"


def floyd_warshall(function, kw):
    """Whether scipy may run Floyd-Warshall: its `shortest_path` picks it for "auto" on small
    dense graphs."""
    return function == "shortest_path" and kw.get("method", "auto") in ("auto", "FW")


def finite(A):
    values = A.data if sp.issparse(A) else np.asarray(A, dtype=float)
    return bool(np.all(np.isfinite(np.asarray(values, dtype=float))))


def negative(A):
    values = A.data if sp.issparse(A) else np.asarray(A, dtype=float)
    return bool(np.any(np.asarray(values, dtype=float) < 0))


def scipy_defect(exc, A):
    """The same graph in a format scipy takes, where scipy refuses one it documents: its
    `shortest_path` reads `.shape` of a list (AttributeError) and refuses COO input when it picks
    Floyd-Warshall ("csgraph must be lil, csr, or csc format"). sssp answers those; the answer
    must be scipy's for the converted graph."""
    if exc is AttributeError and isinstance(A, list):
        return np.asarray(A)
    if exc is ValueError and sp.issparse(A) and A.format == "coo":
        return A.tocsr()
    return None


def same_distances(want, got, kw, fw):
    """The distances to the bit (within 1e-12 relative where scipy may have run Floyd-Warshall,
    which adds sub-paths in another order); with predecessors, the same shape and dtype (the
    tree may differ where paths tie: test_csgraph checks trees by their tight arcs)."""
    if fw:
        w, g = np.asarray(want[0]), np.asarray(got[0])
        if w.shape != g.shape or w.dtype != g.dtype or not np.allclose(w, g, rtol=1e-12, atol=0):
            return False
        return len(want) == len(got)
    if not kw.get("return_predecessors"):
        return same_arrays(want, got)
    return same_arrays(want[:1], got[:1]) and all(
        np.asarray(w).shape == np.asarray(g).shape and np.asarray(w).dtype == np.asarray(g).dtype
        for w, g in zip(want[1:], got[1:])
    )
