"""Interning ``(node_id, name)`` pairs into the CSR tables both name indexes are built on."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass
class NameTable:
    """Distinct nodes (first name seen = display name) and distinct keys; entries of key ``k``
    are ``entry_node[key_ptr[k]:key_ptr[k + 1]]`` (``entry_alias``: not the node's first name)."""

    node_ids: list[str]
    node_names: list[str]
    keys: list[str]
    key_raw: list[str]
    key_ptr: np.ndarray
    entry_node: np.ndarray
    entry_alias: np.ndarray


def intern_names(pairs: Sequence[tuple[str, str]], key_of: Callable[[str], str]) -> NameTable:
    """Intern node ids and the keys ``key_of(name)`` (an empty key is skipped) into a table."""
    node_index: dict[str, int] = {}
    node_ids: list[str] = []
    node_names: list[str] = []
    key_index: dict[str, int] = {}
    keys: list[str] = []
    key_raw: list[str] = []
    e_key: list[int] = []
    e_node: list[int] = []
    e_alias: list[bool] = []
    for nid, name in pairs:
        ni = node_index.get(nid)
        alias = ni is not None
        if ni is None:
            ni = node_index[nid] = len(node_ids)
            node_ids.append(nid)
            node_names.append(name)
        key = key_of(name)
        if not key:
            continue
        ki = key_index.get(key)
        if ki is None:
            ki = key_index[key] = len(keys)
            keys.append(key)
            key_raw.append(name)
        e_key.append(ki)
        e_node.append(ni)
        e_alias.append(alias)
    ek = np.asarray(e_key, np.int64)
    order = np.argsort(ek, kind="stable")
    key_ptr = np.zeros(len(keys) + 1, np.int64)
    np.cumsum(np.bincount(ek, minlength=len(keys)), out=key_ptr[1:])
    return NameTable(node_ids=node_ids, node_names=node_names, keys=keys, key_raw=key_raw,
                     key_ptr=key_ptr, entry_node=np.asarray(e_node, np.int32)[order],
                     entry_alias=np.asarray(e_alias, np.bool_)[order])
