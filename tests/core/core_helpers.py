"""Helpers for the packaging and plugin tests: build wheels from a clean copy of the sources and
install them into fresh virtual environments (imported by name: tests/ has no packages)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLE_PLUGIN = REPO / "docs" / "example_plugin"
_IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist")


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    """Run a command, failing the test with its output when it fails."""
    kwargs.setdefault("capture_output", True)
    kwargs.setdefault("text", True)
    kwargs.setdefault("timeout", 300)
    proc = subprocess.run(cmd, **kwargs)
    if proc.returncode != 0:
        pytest.fail(f"{' '.join(map(str, cmd))} exited {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


def build_wheel(src: Path, out: Path) -> Path:
    """Build ``src`` into a wheel in ``out`` (no network, no build isolation)."""
    run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         "--no-index", "-w", str(out), str(src)])
    (wheel,) = out.glob("*.whl")
    return wheel


def copy_sources(dest: Path) -> Path:
    """A clean copy of what the byokg wheel is built from (the working tree stays untouched)."""
    dest.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md", "constraints.txt", "LICENSE"):
        if (REPO / name).exists():
            shutil.copy2(REPO / name, dest / name)
    if not (dest / "README.md").exists():  # pyproject names it as the long description
        (dest / "README.md").write_text("byokg\n", encoding="utf-8")
    for folder in ("byokg", "plugins", "backends"):
        shutil.copytree(REPO / folder, dest / folder, ignore=_IGNORE)
    return dest


def make_venv(path: Path, wheels: list[Path]) -> Path:
    """A fresh venv with ``wheels`` installed (no deps). The dependencies (pydantic, click, …)
    come from the test interpreter's site-packages through a ``.pth`` path line; byokg's own
    editable install there is not activated (its finder lives in a .pth that is not processed)."""
    run([sys.executable, "-m", "venv", "--without-pip", str(path)])
    py = path / "bin" / "python"
    site = Path(run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
                .stdout.strip())
    (site / "_byokg_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps",
         "--no-index", *map(str, wheels)])
    return path


def venv_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BYOKG_", "PYTHON"))}
    env.update(extra)
    return env
