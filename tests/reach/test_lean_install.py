"""Lean installs: ``pip install byokg`` pulls only the core; every optional package the code
imports is declared in an extra; the demo, linking, the picture and the memory backend run with
every non-core package blocked; a missing extra is a one-line error naming the pip command; and
``make demo`` installs the core while ``make test`` installs everything plus Chromium.

(The size and time of ``make demo`` are measured, not asserted: see the README.)"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tomllib
from importlib.metadata import PackageNotFoundError
from importlib.metadata import packages_distributions
from importlib.metadata import requires
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
CORE = {"pydantic", "pluggy", "click", "rapidfuzz", "numpy", "tqdm"}
HEAVY = {"torch", "faiss-cpu", "flagembedding", "transformers", "kuzu", "neo4j", "boto3",
         "botocore", "pyarrow", "networkx", "pandas", "matplotlib", "scipy", "arcadedb-embedded",
         "fastapi", "uvicorn", "mcp", "langchain-core", "llama-index-core"}
# import names of the core distributions and their own dependencies
CORE_MODULES = {"byokg", "pydantic", "pydantic_core", "annotated_types", "typing_extensions",
                "typing_inspection", "pluggy", "click", "rapidfuzz", "numpy", "tqdm"}


def _name(req: str) -> str:
    return re.split(r"[\s<>=!~;\[(]", req.strip(), maxsplit=1)[0].lower().replace("_", "-")


def test_core_dependencies_are_the_core():
    core = {_name(r) for r in PYPROJECT["project"]["dependencies"]}
    assert core == CORE
    assert not core & HEAVY


def test_extras():
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert {"kuzu", "neo4j", "neptune", "bedrock", "embeddings", "eval", "dev", "all"} <= set(extras)
    (everything,) = extras["all"]
    named = set(re.fullmatch(r"byokg\[(.*)\]", everything).group(1).split(","))
    assert named == set(extras) - {"all"}, "all must name every other extra"
    assert "pyarrow" in {_name(r) for r in extras["kuzu"]}  # Kùzu bulk loads write Parquet


def _declared() -> set[str]:
    """Distributions byokg declares (core and extras) and what those pull in themselves."""
    project = PYPROJECT["project"]
    reqs = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        reqs += [r for r in extra if not r.startswith("byokg[")]
    out = {_name(r) for r in reqs}
    for dist in list(out):
        try:
            out |= {_name(r) for r in requires(dist) or [] if "extra ==" not in r}
        except PackageNotFoundError:
            pass
    return out


def test_every_imported_package_is_declared():
    dist_of = packages_distributions()
    declared = _declared()
    missing = {}
    for folder in ("byokg", "plugins", "backends"):
        for f in (REPO / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for n in names:
                    top = n.split(".")[0]
                    if top in sys.stdlib_module_names or top == "byokg":
                        continue
                    dists = {_name(d) for d in dist_of.get(top, [top])}
                    if not dists & declared:
                        missing.setdefault(top, f.relative_to(REPO).as_posix())
    assert not missing, f"imported but in no dependency list or extra: {missing}"


# Every third-party module outside the core is blocked, as in a `pip install byokg` environment.
BLOCKER = f"""
import sys
ALLOWED = {sorted(CORE_MODULES)!r}
class Block:
    def find_spec(self, name, path=None, target=None):
        top = name.split(".")[0]
        if top in sys.stdlib_module_names or top in ALLOWED or top.startswith("_"):
            return None
        raise ModuleNotFoundError(f"No module named {{name!r}} (blocked)", name=name)
sys.meta_path.insert(0, Block())
from byokg.cli import main
main(sys.argv[1:])
"""


def core_only(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCKER, *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


def test_the_blocker_blocks():
    proc = subprocess.run([sys.executable, "-c", BLOCKER.replace("from byokg.cli import main\n"
                                                                 "main(sys.argv[1:])",
                                                                 "import pyarrow")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and "blocked" in proc.stderr


@pytest.mark.slow
def test_demo_and_friends_run_on_the_core_alone(tmp_path):
    demo = core_only("demo")
    assert demo.returncode == 0, demo.stderr
    assert "3/3 demo questions answered correctly" in demo.stdout
    link = core_only("link", "Satchmo", "--graph", "memory:demo")
    assert link.returncode == 0 and "Louis Armstrong" in link.stdout, link.stderr
    page = tmp_path / "a.html"
    ask = core_only("ask", "Where was Satchmo born?", "--graph", "memory:demo", "--html", str(page))
    assert ask.returncode == 0 and ask.stdout == "New Orleans\n", ask.stderr
    assert page.is_file()
    plugins = core_only("plugins")
    assert plugins.returncode == 0 and "byokg.backends.kuzu" in plugins.stdout
    # a CSV the pyarrow fast path would read goes through the csv module instead
    csv = tmp_path / "t.csv"
    csv.write_text("head,relation,tail\na,r,b\nb,r,c\n", encoding="utf-8")
    stats = core_only("stats", "--graph", f"memory:{csv}", "--json")
    assert stats.returncode == 0 and '"triplets": 2' in stats.stdout, stats.stderr


@pytest.mark.parametrize("uri, extra", [("kuzu:{tmp}/g.kz", "kuzu"),
                                        ("bolt://127.0.0.1:1", "neo4j"),
                                        ("neptune-graph://g-123", "neptune")])
def test_missing_extra_is_one_clear_line(tmp_path, uri, extra):
    proc = core_only("stats", "--graph", uri.format(tmp=tmp_path))
    assert proc.returncode == 1 and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: ") and f"pip install 'byokg[{extra}]'" in lines[0]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_demo_installs_the_core_and_make_test_everything():
    def plan(target: str) -> str:
        proc = subprocess.run(["make", "-n", "-B", target], cwd=REPO, capture_output=True,
                              text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    demo = plan("demo")
    assert "pip install -c constraints.txt -e .\n" in demo and "[all]" not in demo
    assert "byokg demo" in demo and "chromium" not in demo
    test = plan("test")
    assert "pip install -c constraints.txt -e '.[all]'" in test
    assert "apt-get install" in test and "chromium" in test and "pytest" in test
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == "make test"
