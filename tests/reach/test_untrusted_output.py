"""Graph text is untrusted: a graph whose names carry terminal escape sequences, carriage returns,
C1 controls and bidi overrides prints them escaped in every human-readable command (ask,
--explain, link, schema, demo, errors), and --json stays JSON with the exact values."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from byokg import registry
from byokg.cli import cli
from byokg.cli import main
from byokg.errors import ConfigError
from byokg.hookspecs import hookimpl

PERSON = "Zorblax <script>document.title='pwned'</script>"
CITY = "Quux\x1b]0;owned\x07City\x1b[2J\r"
COUNTRY = "Land\u202eevil\x9b31m"
JOB = "</svg><b onmouseover=alert(1)>\"q'</b>"
# what a terminal must never receive raw
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
                    "\u2028\u2029]")


@pytest.fixture(scope="module")
def hostile_graph(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("hostile") / "hostile.jsonl"
    rows = [
        {"head": PERSON, "relation": "born_in", "tail": CITY},
        {"head": CITY, "relation": "located_in", "tail": COUNTRY},
        {"head": PERSON, "relation": "occupation", "tail": JOB},
        {"head": "Ada Lovelace", "relation": "born_in", "tail": "London"},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return f"memory:{path}"


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def assert_safe(out: str) -> None:
    bad = UNSAFE.findall(out)
    assert not bad, f"raw control characters reached the terminal: {bad!r}"


def test_ask_prints_the_answer_escaped(hostile_graph):
    out = run("ask", f"Where was {PERSON} born?", "--graph", hostile_graph)
    assert_safe(out)
    assert out.splitlines()[0] == "Quux\\x1b]0;owned\\x07City\\x1b[2J\\r"


def test_ask_explain_escaped(hostile_graph):
    out = run("ask", f"Where was {PERSON} born?", "--graph", hostile_graph, "--explain")
    assert_safe(out)
    assert f"Q: Where was {PERSON} born?" in out  # markup is plain text in a terminal
    evidence = [ln for ln in out.splitlines() if ln.startswith("  - ")]
    assert any(PERSON in ln and "born_in" in ln and "Quux\\x1b]0;owned\\x07City\\x1b[2J\\r" in ln
               for ln in evidence), out


def test_ask_json_keeps_exact_values(hostile_graph):
    out = run("ask", f"Where was {PERSON} born?", "--graph", hostile_graph, "--json")
    assert_safe(out)
    data = json.loads(out)
    assert data["answers"][0] == CITY and data["question"] == f"Where was {PERSON} born?"


def test_link_escaped(hostile_graph):
    # the name's escape sequence holds a number ("]0;"): a word match must say it too
    out = run("link", "Quux 0 owned City", "Land evil", "--graph", hostile_graph,
              "--min-score", "0.3")
    assert_safe(out)
    assert "Quux\\x1b]0;owned\\x07City\\x1b[2J\\r" in out
    assert "Land\\u202eevil\\x9b31m" in out
    data = json.loads(run("link", "Quux 0 owned City", "--graph", hostile_graph, "--json"))
    assert data[0]["candidates"][0]["name"] == CITY


def test_schema_escaped(hostile_graph):
    out = run("schema", "--graph", hostile_graph)
    assert_safe(out)
    assert "\\x1b" in out and "Relationships:" in out


def test_demo_escaped(monkeypatch):
    from byokg.commands import ask as ask_mod

    monkeypatch.setattr(ask_mod, "demo_questions", lambda limit=3: [
        {"question": "Where was Louis Armstrong born?\x1b[2J", "answers": ["\x1b]0;x\x07"]}])
    out = run("demo")
    assert_safe(out)
    assert "Where was Louis Armstrong born?\\x1b[2J" in out
    assert "expected: \\x1b]0;x\\x07  [miss]" in out


def test_errors_are_one_escaped_line(capsys, tmp_path):
    missing = tmp_path / "gone\x1b[2J\rx.csv"
    with pytest.raises(SystemExit):
        main(["stats", "--graph", f"memory:{missing}"])
    err = capsys.readouterr().err
    assert_safe(err)
    assert err.count("\n") == 1 and "gone\\x1b[2J\\rx.csv" in err

    class Hostile:
        @hookimpl
        def register_backends(self, register):
            def fail(uri, **kw):
                raise ConfigError("bad graph\nsecond line\x1b]0;t\x07")

            def crash(uri, **kw):
                raise RuntimeError("\x9b2J\u202ekaput")

            register("hostile-fail", fail)
            register("hostile-crash", crash)

    registry.register_plugin(Hostile(), name="test-hostile-errors")
    try:
        with pytest.raises(SystemExit):
            main(["stats", "--graph", "hostile-fail:x"])
        err = capsys.readouterr().err
        assert err == "error: bad graph\\nsecond line\\x1b]0;t\\x07\n"
        with pytest.raises(SystemExit):
            main(["stats", "--graph", "hostile-crash:x"])
        err = capsys.readouterr().err
        assert_safe(err)
        assert "RuntimeError: \\x9b2J\\u202ekaput" in err
    finally:
        registry.unregister_plugin("test-hostile-errors")


def test_usage_errors_escaped(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["stats", "--graph", "memory:demo", "--samples\x1b[2J"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert_safe(err)
    assert "--samples\\x1b[2J" in err


def test_the_safety_check_can_fail():
    with pytest.raises(AssertionError, match="raw control"):
        assert_safe(f"A: {CITY}")
