"""Packaging: the wheel holds only ``byokg/…`` (plugins/ and backends/ mapped into it), installs
into a fresh venv, and ``import byokg`` stays light."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import zipfile

import pytest
from core_helpers import REPO
from core_helpers import make_venv
from core_helpers import run
from core_helpers import venv_env

HEAVY = ("torch", "faiss", "boto3", "botocore", "FlagEmbedding", "kuzu", "neo4j", "numpy",
         "transformers", "pandas", "pyarrow", "networkx")


@pytest.mark.slow
def test_wheel_contents(byokg_wheel):
    names = zipfile.ZipFile(byokg_wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    dist_info = next(t for t in tops if t.endswith(".dist-info"))
    assert re.fullmatch(r"byokg-[0-9][^/]*\.dist-info", dist_info), dist_info
    assert tops == {"byokg", dist_info}, tops
    for module in ("byokg/__init__.py", "byokg/plugins/__init__.py", "byokg/backends/__init__.py",
                   "byokg/backends/memory.py", "byokg/hookspecs.py", "byokg/cli.py",
                   "byokg/demo/demo_kg.jsonl", "byokg/demo/questions.jsonl"):
        assert module in names, module
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)
    # the demo graph's generator stays in the repository (scripts/), only its output ships
    assert not [n for n in names if n.startswith("byokg/demo/") and n.endswith(".py")
                and not n.endswith("__init__.py")], names
    assert not any("build_demo_graph" in n or n.startswith("scripts/") for n in names)
    entry_points = zipfile.ZipFile(byokg_wheel).read(f"{dist_info}/entry_points.txt")
    assert b"byokg = byokg.cli:run" in entry_points


# A data file the code reads but pyproject's package-data does not ship yet (fix requested:
# add  "byokg" = ["data/*.json"]  under [tool.setuptools.package-data]).
KNOWN_UNSHIPPED = {"byokg/data/northwind_mapping.json"}


@pytest.mark.slow
def test_wheel_ships_every_source_file(byokg_wheel):
    """Every file of byokg/, plugins/ and backends/ is in the wheel (a new subpackage or data
    file not declared in pyproject.toml would otherwise be missing from installs)."""
    names = set(zipfile.ZipFile(byokg_wheel).namelist())
    src = byokg_wheel.parents[1] / "src"  # the copy the wheel was built from (see conftest)
    expected = set()
    for folder, prefix in (("byokg", "byokg"), ("plugins", "byokg/plugins"),
                           ("backends", "byokg/backends")):
        for f in (src / folder).rglob("*"):
            rel = f.relative_to(src / folder)
            if f.is_file() and "__pycache__" not in rel.parts and f.suffix != ".pyc":
                expected.add(f"{prefix}/{rel.as_posix()}")
    missing = expected - names
    if missing == KNOWN_UNSHIPPED:
        pytest.xfail(f"pyproject.toml package-data does not ship {sorted(missing)} yet")
    assert not missing, sorted(missing)


@pytest.mark.slow
def test_wheel_installs_into_fresh_venv(tmp_path, byokg_wheel):
    venv = make_venv(tmp_path / "venv", [byokg_wheel])
    site = next((venv / "lib").glob("python3*/site-packages"))
    entries = {p.name for p in site.iterdir()}
    assert "byokg" in entries
    assert not entries & {"plugins", "backends", "plugins.py", "backends.py"}, entries
    script = (
        "import importlib.util, json, byokg, byokg.plugins, byokg.backends, byokg.backends.memory\n"
        "print(json.dumps({'byokg': byokg.__file__, 'plugins': byokg.plugins.__file__,\n"
        "  'backends': byokg.backends.__file__,\n"
        "  'top_plugins': importlib.util.find_spec('plugins') is not None,\n"
        "  'top_backends': importlib.util.find_spec('backends') is not None}))\n"
    )
    info = json.loads(run([str(venv / "bin" / "python"), "-c", script], cwd=tmp_path,
                          env=venv_env()).stdout)
    for key in ("byokg", "plugins", "backends"):
        assert info[key].startswith(str(site)), info  # imported from the venv, not the repo
    assert not info["top_plugins"] and not info["top_backends"]
    # the console script works and the demo graph ships inside the package
    out = run([str(venv / "bin" / "byokg"), "stats", "--graph", "memory:demo", "--json"],
              cwd=tmp_path, env=venv_env()).stdout
    assert json.loads(out)["triplets"] >= 600


@pytest.mark.parametrize("extra", ["", "import byokg.cli", "import byokg.contracts, byokg.hookspecs",
                                   "import byokg.errors, byokg.graph.open"])
def test_import_byokg_is_light(extra):
    code = (f"import byokg, sys\n{extra}\n"
            f"heavy = [m for m in {HEAVY!r} if m in sys.modules]\n"
            "print(','.join(heavy))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=REPO, env=venv_env(), timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "", f"heavy modules imported: {proc.stdout.strip()}"


def test_heavy_check_can_fail():
    """The light-import check sees a heavy module when one is imported."""
    code = f"import byokg, sys, numpy\nprint([m for m in {HEAVY!r} if m in sys.modules])"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=venv_env(), timeout=60)
    assert "numpy" in proc.stdout


def test_cli_help_does_not_load_model_or_driver_libraries():
    code = (
        "import sys\nfrom byokg.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = ('torch', 'faiss', 'boto3', 'FlagEmbedding', 'kuzu', 'neo4j', 'transformers')\n"
        "print(','.join(m for m in heavy if m in sys.modules), file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=venv_env(), timeout=60)
    assert proc.returncode == 0 and "Commands:" in proc.stdout
    assert proc.stderr.strip() == "", f"byokg --help imported: {proc.stderr.strip()}"


def test_test_module_basenames_are_unique():
    """pytest's default (prepend) import mode needs unique basenames across test folders."""
    from collections import Counter
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    names = Counter(p.name for p in root.rglob("test_*.py"))
    assert [n for n, c in names.items() if c > 1] == []
