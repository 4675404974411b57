"""Session fixtures for tests/core: the byokg wheel and the example plugin's wheel, built once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from core_helpers import _IGNORE
from core_helpers import EXAMPLE_PLUGIN
from core_helpers import build_wheel
from core_helpers import copy_sources


@pytest.fixture(scope="session")
def byokg_wheel(tmp_path_factory) -> Path:
    """The byokg wheel, built once per session from a clean copy of the sources."""
    root = tmp_path_factory.mktemp("byokg-wheel")
    return build_wheel(copy_sources(root / "src"), root / "dist")


@pytest.fixture(scope="session")
def example_plugin_wheel(tmp_path_factory) -> Path:
    """docs/example_plugin (the package docs/plugins.md shows) built into a wheel."""
    root = tmp_path_factory.mktemp("myplug-wheel")
    src = root / "src"
    shutil.copytree(EXAMPLE_PLUGIN, src, ignore=_IGNORE)
    return build_wheel(src, root / "dist")
