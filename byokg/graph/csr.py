"""Array view of a store's adjacency (the ``csr`` capability) and pure helpers over it.

A store that keeps its edges as arrays (the in-memory backend) declares
:attr:`~byokg.graph.store.Capability.CSR` and returns a :class:`CsrView` from ``store.csr()``: node
and relation names by int id, one int32 entry per edge in ``heads``/``rels``/``tails``, and CSR
pointers for both directions (edges of node ``i`` are ``out_edges[out_ptr[i]:out_ptr[i + 1]]``).
The core's shortest-path search (:mod:`byokg.graph.paths`) and Eq. 10 scoring (:mod:`byokg.plugins.scoring.scorers`)
then read the arrays directly instead of building a Triplet per edge; any other store takes the
batched ``neighbors()`` route. numpy is imported only by the functions that need it.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = ["CsrView", "gather_csr"]


@dataclass(frozen=True, slots=True)
class CsrView:
    """Read-only arrays of a graph's adjacency (no copies: the store's own arrays).

    ``ids[i]`` / ``index[id]`` map node int ids and node ids; ``relations[r]`` names relation
    ``r``; edge ``e`` is ``ids[heads[e]] -relations[rels[e]]-> ids[tails[e]]``.
    """

    ids: Sequence[str]
    index: Mapping[str, int]
    relations: Sequence[str]
    heads: np.ndarray
    rels: np.ndarray
    tails: np.ndarray
    out_ptr: np.ndarray
    out_edges: np.ndarray
    in_ptr: np.ndarray
    in_edges: np.ndarray

    def degree(self, nodes: np.ndarray) -> np.ndarray:
        """Edge count (both directions) of each int node id in ``nodes``."""
        return (self.out_ptr[nodes + 1] - self.out_ptr[nodes]) + (
            self.in_ptr[nodes + 1] - self.in_ptr[nodes]
        )

    def edges_of(self, nodes: np.ndarray) -> tuple[np.ndarray, ...]:
        """``(edges, owner, stored, other)`` over every edge of the int ids ``nodes``, their
        out-edges first, then their in-edges: the edge id, the node of ``nodes`` it belongs
        to, whether it is stored leaving that node, and the node at its other end."""
        import numpy as np

        e_out, s_out = gather_csr(self.out_ptr, self.out_edges, nodes)
        e_in, s_in = gather_csr(self.in_ptr, self.in_edges, nodes)
        return (
            np.concatenate([e_out, e_in]),
            nodes[np.concatenate([s_out, s_in])],
            np.concatenate([np.ones(len(e_out), bool), np.zeros(len(e_in), bool)]),
            np.concatenate([self.tails[e_out], self.heads[e_in]]).astype(np.int64),
        )


def gather_csr(ptr: np.ndarray, order: np.ndarray, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(edge ids, owner slot) of the CSR slices of ``nodes`` concatenated in order; the owner
    slot is the position of the node in ``nodes``."""
    import numpy as np

    starts = ptr[nodes]
    lens = ptr[nodes + 1] - starts
    total = int(lens.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    offs = np.repeat(starts - (np.cumsum(lens) - lens), lens)
    pos = np.arange(total, dtype=np.int64) + offs
    return order[pos].astype(np.int64), np.repeat(np.arange(len(nodes), dtype=np.int64), lens)
