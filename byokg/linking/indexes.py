"""The local linking indexes of a store, built once per run and optionally kept on disk.

:func:`get_name_index` (the fuzzy n-gram/rapidfuzz :class:`~byokg.linking.fuzzy.NameIndex`) and
:func:`get_dense_index` (FAISS over embedder vectors) are built once per store and run
(``Services.shared``) and saved with a manifest in the graph's cache folder (under
``RunConfig.index_dir`` when set, else next to the graph's profile in ``$BYOKG_CACHE_DIR`` or
``~/.cache/byokg``; ``BYOKG_CACHE_DIR=off`` keeps nothing), reused while the graph's names are
unchanged. The ``entity-linker`` (``byokg.plugins.linking``)
searches them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from byokg.config import graph_cache_dir
from byokg.config import slug
from byokg.errors import InputError
from byokg.graph.store import GraphStore
from byokg.linking.manifest import collect_names
from byokg.linking.manifest import mismatch
from byokg.linking.manifest import read_manifest
from byokg.linking.manifest import store_fingerprint
from byokg.models.services import Services

log = logging.getLogger("byokg.linking")


# ---------------------------------------------------------------------------- index cache


def _graph_folder(store: GraphStore, services: Services, index_dir: str | Path | None
                  ) -> Path | None:
    """The graph's cache folder under ``index_dir``, else ``RunConfig.index_dir``, else the
    cache root (``$BYOKG_CACHE_DIR`` or ``~/.cache/byokg``, next to the graph's profile); None
    when caching is off or the graph was built in this process."""
    root = index_dir if index_dir is not None else services.config.index_dir
    return graph_cache_dir(store.uri, Path(root).expanduser() if root else None)


def _on_disk(folder: Path, expect: dict[str, Any], load: Callable[[], Any],
             make: Callable[[], Any], store_uri: str, *, why: str | None = None) -> Any:
    """An index kept in ``folder``: loaded when its manifest matches ``expect``, else made and
    saved; its ``status`` says which (``built``, ``loaded``, ``rebuilt: <why>``). ``why``: the
    caller already knows it cannot be loaded."""
    if why is None:
        why = mismatch(read_manifest(folder), expect)
    if why is None:
        try:
            index = load()
            index.status = "loaded"
            log.info("%s index for %s loaded from %s", expect["kind"], store_uri, folder)
            return index
        except InputError as exc:
            why = str(exc)
    t0 = time.perf_counter()
    index = make()
    index.save(folder, store_uri=store_uri)
    if why == "no manifest":
        index.status = "built"
    else:
        index.status = f"rebuilt: {why}"
        log.warning("%s index at %s was stale (%s); rebuilt", expect["kind"], folder, why)
    log.info("%s index for %s saved to %s (%.1fs)", expect["kind"], store_uri, folder,
             time.perf_counter() - t0)
    return index


def get_name_index(store: GraphStore, services: Services | None = None, *,
                   index_dir: str | Path | None = None) -> Any:
    """The fuzzy :class:`NameIndex` of ``store``: built once per run, and kept on disk in the
    graph's cache folder (see the module doc; ``index_dir`` overrides). A saved index whose
    manifest does not match the store (names changed, other format) is rebuilt; its
    ``status`` attribute says what happened (``built``, ``loaded``, ``rebuilt: <why>``)."""
    services = services or Services()
    root = _graph_folder(store, services, index_dir)

    def build() -> Any:
        from byokg.linking.fuzzy import FORMAT
        from byokg.linking.fuzzy import NameIndex

        if root is None:
            index = NameIndex.from_store(store)
            index.status = "built"
            return index
        folder = root / "names"
        why = mismatch(read_manifest(folder), {"kind": "names", "format": FORMAT})
        if why is not None:  # nothing usable there: build in one pass, fingerprint included
            return _on_disk(folder, {"kind": "names", "format": FORMAT}, lambda: None,
                            lambda: NameIndex.from_store(store), store.uri, why=why)
        fp = store_fingerprint(store)  # a pass without keeping the names
        return _on_disk(folder, {"kind": "names", "format": FORMAT, "fingerprint": fp},
                        lambda: NameIndex.load(folder, expect_fingerprint=fp, store=store),
                        lambda: NameIndex.from_store(store), store.uri)

    return services.shared(f"name-index:{store.uri}", build)


def get_dense_index(store: GraphStore, services: Services | None = None, *,
                    index_dir: str | Path | None = None, progress: bool | None = None) -> Any:
    """The :class:`DenseIndex` of ``store`` for ``services.embedder``, cached like
    :func:`get_name_index` (the manifest also pins the embedder name and dimension)."""
    services = services or Services()
    root = _graph_folder(store, services, index_dir)
    embedder = services.embedder

    def build() -> Any:
        from byokg.linking.dense import FORMAT
        from byokg.linking.dense import DenseIndex

        if root is None:
            index = DenseIndex.from_store(store, embedder, progress=progress)
            index.status = "built"
            return index
        folder = root / f"dense-{slug(embedder.name)}"
        pairs, fp = collect_names(store)
        expect = {"kind": "dense", "format": FORMAT, "fingerprint": fp,
                  "embedder": embedder.name, "dim": embedder.dim}
        return _on_disk(folder, expect,
                        lambda: DenseIndex.load(folder, embedder, expect_fingerprint=fp),
                        lambda: DenseIndex.from_pairs(pairs, embedder, fingerprint_=fp,
                                                      progress=progress), store.uri)

    return services.shared(f"dense-index:{store.uri}:{embedder.name}", build)


