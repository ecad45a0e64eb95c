"""sssp.read and sssp.read_csr against scipy: graph files in every format family the library
reads (plain, compressed, streamed), parallel arcs reduced to the lightest, and errors."""

import gzip
import lzma
import os
import threading

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg

import sssp

# 5 vertices; 1 -> 2 three times (7, 3, 9) and 2 -> 4 twice (4, 1): their sum would change the
# distances, their minimum is what a shortest path takes.
DIMACS = "c parallel arcs\np sp 5 8\na 1 2 7\na 1 2 3\na 2 3 2\na 1 2 9\na 2 4 4\na 3 4 1\na 2 4 1\na 4 5 6\n"
ARCS = [(0, 1, 7), (0, 1, 3), (1, 2, 2), (0, 1, 9), (1, 3, 4), (2, 3, 1), (1, 3, 1), (3, 4, 6)]


def lightest():
    """The graph with each vertex pair's lightest arc, built by hand."""
    best = {}
    for u, v, w in ARCS:
        best[(u, v)] = min(w, best.get((u, v), w))
    (r, c), w = zip(*best.keys()), list(best.values())
    return sp.csr_matrix((np.array(w, dtype=float), (r, c)), shape=(5, 5))


@pytest.fixture(params=["gr", "gr.gz", "gr.xz", "el", "mtx"])
def graph_file(request, tmp_path):
    kind = request.param
    if kind.startswith("gr"):
        text = DIMACS
    elif kind == "el":
        text = "".join(f"{u} {v} {w}\n" for u, v, w in ARCS)
        kind = "wel"
    else:
        text = "%%MatrixMarket matrix coordinate integer general\n5 5 8\n" + "".join(
            f"{u + 1} {v + 1} {w}\n" for u, v, w in ARCS
        )
    path = tmp_path / f"g.{kind}"
    data = text.encode()
    if kind.endswith(".gz"):
        data = gzip.compress(data)
    elif kind.endswith(".xz"):
        data = lzma.compress(data)
    path.write_bytes(data)
    return path


def test_read_csr_keeps_the_lightest_arc(graph_file):
    A = sssp.read_csr(graph_file)
    want = lightest()
    assert A.dtype == np.float64 and A.shape == (5, 5)
    assert (A != want).nnz == 0 and A.nnz == want.nnz
    assert np.array_equal(csg.dijkstra(A), csg.dijkstra(want))


def test_read_answers_as_scipy_on_the_lightest_arcs(graph_file):
    g = sssp.read(graph_file, device="cpu")
    assert (g.num_vertices, g.num_arcs) == (5, 8)  # parallel arcs kept, the lightest used
    want = csg.dijkstra(lightest())
    assert np.array_equal(g.distances(np.arange(5)), want)
    # summing parallel arcs, as csr_matrix((w, (r, c))) does, gives another graph
    r, c, w = zip(*ARCS)
    summed = csg.dijkstra(sp.csr_matrix((np.array(w, dtype=float), (r, c)), shape=(5, 5)))
    assert not np.array_equal(summed, want)


def test_read_real_weights_exactly(tmp_path):
    path = tmp_path / "g.mtx"
    path.write_text("%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 0.1\n2 3 0.25\n1 3 0.5\n")
    A = sssp.read_csr(path)
    # Matrix Market reals are read as f32 (the engines' real type): the values are f32's
    assert A[0, 1] == float(np.float32(0.1))
    assert np.array_equal(sssp.read(path).distances(0), csg.dijkstra(A, indices=0))


def test_read_from_a_fifo(tmp_path):
    path = tmp_path / "g.gr.gz"
    os.mkfifo(path)
    writer = threading.Thread(target=lambda: path.write_bytes(gzip.compress(DIMACS.encode())))
    writer.start()
    try:
        A = sssp.read_csr(path)
    finally:
        if writer.is_alive():  # the reader failed before opening the fifo: let the writer go
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
            writer.join(timeout=10)
            os.close(fd)
        writer.join()
    assert np.array_equal(csg.dijkstra(A), csg.dijkstra(lightest()))


def test_read_format_argument(tmp_path):
    path = tmp_path / "graph.data"
    path.write_text(DIMACS)
    with pytest.raises(ValueError, match="format="):
        sssp.read(path)
    assert np.array_equal(sssp.read_csr(path, format="gr").toarray(), lightest().toarray())


def test_read_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        sssp.read(tmp_path / "missing.gr")
    bad = tmp_path / "bad.gr"
    bad.write_text("p sp 3 1\na 1 9 2\n")
    with pytest.raises(ValueError, match="line 2|:2"):
        sssp.read(bad)
    with pytest.raises(ValueError):
        sssp.read(tmp_path / "x.gr", format="nope")
    (tmp_path / "dir.gr").mkdir()
    with pytest.raises(OSError):
        sssp.read(tmp_path / "dir.gr")
