"""Path tools on the in-memory backend: shortest paths (hit / miss), follow a 2-hop relation path,
capped 2-hop expansion. p50 / p95 over many random pairs and seeds, hubs included.

    python -m benchmarks.perf --only paths [--scale 1500000] [--quick]

Sampling (deterministic, seed 0):

* hit pairs: a random 2- or 3-hop walk (either edge direction) from a source; the target is
  where the walk ends, so a path within ``max_hops=3`` exists. A quarter of the sources are
  among the 50 highest-degree nodes.
* miss pairs: random sources (a quarter hubs) to targets in a small component added to the
  graph (unreachable), plus random node pairs with no path within 3 hops.
* follow: the relation names of a random 2-hop walk, followed from the walk's start.
* expand: 2 hops from random seeds (a quarter hubs) and from the largest hub, default caps
  (50 edges per node, 1000 triplets).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import numpy as np

REFERENCE = {
    "shortest_path_hit_ms": {"goal": 50, "unit": " ms"},
    "shortest_path_miss_ms": {
        "anchor": 6800,
        "goal": 50,
        "unit": " ms",
        "note": "anchor: full BFS",
    },
    "follow_path_2hop_ms": {"goal": 50, "unit": " ms"},
    "expand_2hop_capped_ms": {"goal": 50, "unit": " ms"},
    "expand_2hop_top_hub_ms": {
        "anchor": 2700,
        "goal": 50,
        "unit": " ms",
        "note": "anchor: 776k triplets",
    },
}

ISLANDS = 20


def _graph(scale: int) -> Any:
    """The synthetic KG as a MemoryGraph, plus ``ISLANDS`` two-node components."""
    from benchmarks.synthetic import SyntheticKG
    from benchmarks.synthetic import build

    kg = build(scale, 0)
    n = len(kg.node_names)
    return SyntheticKG(
        node_names=[*kg.node_names, *(f"byokg-bench-island-{i}" for i in range(2 * ISLANDS))],
        relation_names=kg.relation_names,
        heads=np.concatenate([kg.heads, np.arange(n, n + 2 * ISLANDS, 2, dtype=np.int32)]),
        rels=np.concatenate([kg.rels, np.zeros(ISLANDS, dtype=np.int32)]),
        tails=np.concatenate([kg.tails, np.arange(n + 1, n + 2 * ISLANDS, 2, dtype=np.int32)]),
    ).memory_graph("memory:synthetic")


def _walk(
    g: Any, rng: np.random.Generator, start: int, hops: int
) -> tuple[list[int], list[str]] | None:
    """A random walk of ``hops`` steps along either edge direction; (nodes, relations)."""
    nodes, rels = [start], []
    cur = start
    for _ in range(hops):
        lo_o, hi_o = int(g.out_ptr[cur]), int(g.out_ptr[cur + 1])
        lo_i, hi_i = int(g.in_ptr[cur]), int(g.in_ptr[cur + 1])
        deg = (hi_o - lo_o) + (hi_i - lo_i)
        if deg == 0:
            return None
        j = int(rng.integers(deg))
        if j < hi_o - lo_o:
            e = int(g.out_edges[lo_o + j])
            nxt = int(g.tails[e])
        else:
            e = int(g.in_edges[lo_i + j - (hi_o - lo_o)])
            nxt = int(g.heads[e])
        if nxt in nodes:
            return None
        rels.append(g._rels[int(g.rels[e])])
        nodes.append(nxt)
        cur = nxt
    return nodes, rels


def _sources(
    g: Any, rng: np.random.Generator, count: int, hubs: np.ndarray, n_real: int
) -> list[int]:
    out = []
    for i in range(count):
        out.append(int(hubs[rng.integers(len(hubs))]) if i % 4 == 0 else int(rng.integers(n_real)))
    return out


class _ProtocolOnly:
    """Forwards the GraphStore protocol only (no CSR arrays): byokg.graph.paths' generic route."""

    capabilities: frozenset[str] = frozenset()

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.uri = inner.uri

    def neighbors(self, ids: Any, **kw: Any) -> Any:
        return self._inner.neighbors(ids, **kw)

    def degrees(self, ids: Any, **kw: Any) -> Any:
        return self._inner.degrees(ids, **kw)

    def get_nodes(self, ids: Any) -> Any:
        return self._inner.get_nodes(ids)

    def relation_types(self) -> list[str]:
        return self._inner.relation_types()


def _time(fn: Any) -> tuple[float, Any]:
    t0 = time.perf_counter()
    res = fn()
    return (time.perf_counter() - t0) * 1000, res


def _p(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def run(scale: int, results: dict, *, quick: bool = False) -> None:
    from byokg.graph.paths import expand
    from byokg.graph.paths import follow_paths
    from byokg.graph.paths import shortest_paths

    t0 = time.perf_counter()
    g = _graph(scale)
    results["graph_build_s"] = time.perf_counter() - t0
    n_real = len(g._ids) - 2 * ISLANDS
    degree = (g.out_ptr[1:] - g.out_ptr[:-1]) + (g.in_ptr[1:] - g.in_ptr[:-1])
    hubs = np.argsort(-degree[:n_real])[:50]
    results["top_hub_degree"] = int(degree[hubs[0]])
    ids = g._ids
    rng = np.random.default_rng(0)
    samples = 40 if quick else 200
    relations = set(g.relation_types())

    # --- shortest paths: hits (pairs joined by a random walk)
    hit_ms, hubs_capped, bounded, found = [], 0, 0, 0
    for s in _sources(g, rng, samples * 3, hubs, n_real):
        if len(hit_ms) >= samples:
            break
        w = _walk(g, rng, s, int(rng.integers(2, 4)))
        if w is None:
            continue
        ms, res = _time(
            lambda w=w: shortest_paths(g, [(ids[w[0][0]], ids[w[0][-1]])], max_hops=3, k=3)
        )
        hit_ms.append(ms)
        found += bool(res.all_paths)
        hubs_capped += bool(res.hubs_capped)
        bounded += res.bounded
    results["shortest_path_hit_ms"] = _p(hit_ms, 0.5)
    results["shortest_path_hit_p95_ms"] = _p(hit_ms, 0.95)
    results["shortest_path_hit_pairs"] = len(hit_ms)
    # a path exists for every hit pair; it is missed only when it needs a hub expanded
    results["shortest_path_hit_found_frac"] = found / max(len(hit_ms), 1)
    results["shortest_path_hit_hubs_capped_frac"] = hubs_capped / max(len(hit_ms), 1)
    results["shortest_path_hit_bounded_frac"] = bounded / max(len(hit_ms), 1)

    # --- shortest paths: misses (island targets, and random pairs with no path within 3 hops)
    miss_ms, miss_far_ms, found_far = [], [], 0
    for i, s in enumerate(_sources(g, rng, samples, hubs, n_real)):
        island = ids[n_real + 2 * (i % ISLANDS) + 1]
        ms, res = _time(
            lambda s=s, island=island: shortest_paths(g, [(ids[s], island)], max_hops=3)
        )
        assert not res.all_paths
        miss_ms.append(ms)
        t = int(rng.integers(n_real))
        ms, res = _time(lambda s=s, t=t: shortest_paths(g, [(ids[s], ids[t])], max_hops=3))
        if res.all_paths:
            found_far += 1
        else:
            miss_far_ms.append(ms)
    results["shortest_path_miss_ms"] = _p(miss_ms + miss_far_ms, 0.5)
    results["shortest_path_miss_p95_ms"] = _p(miss_ms + miss_far_ms, 0.95)
    results["shortest_path_miss_island_ms"] = _p(miss_ms, 0.5)
    results["shortest_path_miss_random_ms"] = _p(miss_far_ms, 0.5)
    results["shortest_path_random_found_frac"] = found_far / samples

    # --- the same misses through the protocol only (what a backend without CSR arrays runs)
    proxy = _ProtocolOnly(g)
    generic_ms = []
    for i, s in enumerate(_sources(g, rng, max(samples // 4, 10), hubs, n_real)):
        island = ids[n_real + 2 * (i % ISLANDS) + 1]
        t = ids[int(rng.integers(n_real))]
        ms, res = _time(
            lambda s=s, t=t, island=island: shortest_paths(proxy, [(ids[s], island), (ids[s], t)])
        )
        generic_ms.append(ms)
    results["shortest_path_generic_2pairs_ms"] = _p(generic_ms, 0.5)

    # --- follow a 2-hop relation path (relations of a random walk) from its start
    follow_ms, truncated = [], 0
    for s in _sources(g, rng, samples * 3, hubs, n_real):
        if len(follow_ms) >= samples:
            break
        w = _walk(g, rng, s, 2)
        if w is None:
            continue
        nodes, rels = w
        ms, res = _time(
            lambda nodes=nodes, rels=rels: follow_paths(
                g, [ids[nodes[0]]], rels, schema_relations=relations
            )
        )
        assert res.paths, "a walked relation path must be followable"
        follow_ms.append(ms)
        truncated += res.truncated
    results["follow_path_2hop_ms"] = _p(follow_ms, 0.5)
    results["follow_path_2hop_p95_ms"] = _p(follow_ms, 0.95)
    results["follow_path_2hop_truncated_frac"] = truncated / max(len(follow_ms), 1)

    # --- capped 2-hop expansion
    exp_ms, sizes, trunc = [], [], 0
    for s in _sources(g, rng, samples, hubs, n_real):
        ms, res = _time(lambda s=s: expand(g, [ids[s]], hops=2))
        exp_ms.append(ms)
        sizes.append(len(res.triplets))
        trunc += res.truncated
    results["expand_2hop_capped_ms"] = _p(exp_ms, 0.5)
    results["expand_2hop_capped_p95_ms"] = _p(exp_ms, 0.95)
    results["expand_2hop_triplets_p50"] = statistics.median(sizes)
    results["expand_2hop_truncated_frac"] = trunc / len(exp_ms)
    top = ids[int(hubs[0])]
    hub_ms = []
    for _ in range(3 if quick else 10):
        ms, res = _time(lambda: expand(g, [top], hops=2))
        hub_ms.append(ms)
    results["expand_2hop_top_hub_ms"] = _p(hub_ms, 0.5)
    results["expand_2hop_top_hub_triplets"] = len(res.triplets)
    results["expand_2hop_top_hub_truncated"] = int(res.truncated)


if __name__ == "__main__":  # python -m benchmarks.bench_paths [scale]
    import sys

    out: dict[str, float] = {}
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 1_500_000, out, quick="--quick" in sys.argv)
    for k, v in out.items():
        print(f"{k:40s} {v:.3f}" if isinstance(v, float) else f"{k:40s} {v}")
