"""``byokg link`` and ``byokg index build``."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from byokg.cli import cli


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_link_json_per_mention():
    res = run("link", "Wynton Marsalls", "USA", "qqqqzzzz", "--graph", "memory:demo", "--json",
              "--top-k", "2")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert [d["mention"] for d in data] == ["Wynton Marsalls", "USA", "qqqqzzzz"]
    first = data[0]["candidates"][0]
    assert set(first) == {"id", "name", "score", "method"}
    assert first["id"] == "Wynton Marsalis" and first["method"] == "fuzzy"
    assert data[1]["candidates"][0] == {"id": "United States", "name": "United States",
                                        "score": 1.0, "method": "alias"}
    assert data[2]["candidates"] == []
    assert all(len(d["candidates"]) <= 2 for d in data)


def test_link_text_and_dense_method():
    res = run("link", "Marsalis Wynton", "--graph", "memory:demo")
    assert res.exit_code == 0
    assert res.output.splitlines()[0] == "Marsalis Wynton:"
    assert "fuzzy" in res.output and "Wynton Marsalis" in res.output
    res = run("link", "Branford Marsalis", "--graph", "memory:demo", "--method", "dense",
              "--embedder", "lexical", "--top-k", "1", "--json")
    data = json.loads(res.output)
    assert data[0]["candidates"][0]["id"] == "Branford Marsalis"
    assert data[0]["candidates"][0]["method"] == "dense"


def test_index_build_then_reuse(tmp_path):
    args = ["index", "build", "--graph", "memory:demo", "--index-dir", str(tmp_path), "--dense",
            "--embedder", "lexical", "--json"]
    first = json.loads(run(*args).output)
    assert [r["status"] for r in first] == ["built", "built"]
    assert first[1]["embedder"] == "lexical-512" and first[0]["names"] > 1000
    second = json.loads(run(*args).output)
    assert [r["status"] for r in second] == ["loaded", "loaded"]
    res = run("link", "Wynton Marsalls", "--graph", "memory:demo", "--index-dir", str(tmp_path))
    assert "Wynton Marsalis" in res.output


def test_errors_are_one_line():
    proc = subprocess.run([sys.executable, "-m", "byokg.cli", "link", "x", "--graph", "nope"],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stderr.startswith("error: graph URI 'nope' has no scheme")
    assert len(proc.stderr.strip().splitlines()) == 1
    proc = subprocess.run([sys.executable, "-m", "byokg.cli", "link", "x", "--graph",
                           "memory:demo", "--method", "dense", "--embedder", "nosuch"],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert "unknown embedder 'nosuch'" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
