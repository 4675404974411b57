"""The tree stays ruff clean (the project's lint settings live in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_ruff_check_is_clean():
    ruff = Path(sys.executable).with_name("ruff")
    exe = str(ruff) if ruff.exists() else shutil.which("ruff")
    assert exe, "ruff is part of the [dev] extra; install byokg[dev]"
    res = subprocess.run([exe, "check", "--no-cache", "."], cwd=REPO, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
