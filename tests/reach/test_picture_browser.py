"""The evidence page in a real headless Chromium (Debian package ``chromium``; ``make test``
installs it): the rendered DOM holds the node and relation labels, a screenshot shows the node
boxes, and a hostile graph's ``<script>`` stays text (the title is unchanged, no script element).
Skipped only where Chromium is genuinely missing outside CI; in CI a missing browser fails."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from byokg.cli import cli

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ENTITY_FILL, ANSWER_FILL = (0xDB, 0xEA, 0xFE), (0xDC, 0xFC, 0xE7)  # byokg/picture.py's CSS


@pytest.fixture(scope="module")
def chromium() -> str:
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (make test installs the Debian package)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    return CHROMIUM


def browse(chromium: str, page: Path, tmp: Path, *args: str) -> str:
    profile = tmp / f"profile-{len(list(tmp.glob('profile-*')))}"
    proc = subprocess.run([chromium, *FLAGS, f"--user-data-dir={profile}", *args,
                           page.resolve().as_uri()], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


class DomText(HTMLParser):
    """The rendered DOM as Chromium dumps it: title, text of every element, script elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.title = ""
        self.scripts = 0
        self.node_labels: list[str] = []
        self.edge_labels: list[str] = []
        self.text: list[str] = []
        self._kind: list[str | None] = []

    VOID = {"meta", "link", "br", "img", "input", "hr", "wbr", "source", "area", "base", "col"}

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        cls = dict(attrs).get("class") or ""
        self.stack.append(tag)
        self.scripts += tag == "script"
        kind = ("node" if "byokg-node" in cls.split() else "edge" if cls == "byokg-edge"
                else None)
        self._kind.append(kind or (self._kind[-1] if self._kind else None))

    def handle_endtag(self, tag):
        if tag in self.stack:  # close up to the matching element
            while self.stack:
                self._kind.pop()
                if self.stack.pop() == tag:
                    break

    def handle_data(self, data):
        if not self.stack:
            return
        if self.stack[-1] == "title" and "svg" not in self.stack and "g" not in self.stack:
            self.title += data
        self.text.append(data)
        if self.stack[-1] == "text":
            kind = self._kind[-1]
            if kind == "node":
                self.node_labels.append(data)
            elif kind == "edge":
                self.edge_labels.append(data)


def dom(chromium: str, page: Path, tmp: Path) -> DomText:
    parsed = DomText()
    parsed.feed(browse(chromium, page, tmp, "--dump-dom"))
    return parsed


def screenshot(chromium: str, page: Path, tmp: Path):
    from PIL import Image

    png = tmp / f"{page.stem}.png"
    browse(chromium, page, tmp, "--window-size=1200,800", "--hide-scrollbars",
           f"--screenshot={png}")
    assert png.is_file() and png.stat().st_size > 0
    return Image.open(png).convert("RGB")


def count_color(img, rgb, tol: int = 3) -> int:
    return sum(n for n, c in img.getcolors(maxcolors=1 << 24)
               if all(abs(a - b) <= tol for a, b in zip(c, rgb, strict=True)))


def write_graph(path: Path, rows: list[dict]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return f"memory:{path}"


def ask_html(graph: str, question: str, page: Path) -> dict:
    result = CliRunner().invoke(cli, ["ask", question, "--graph", graph, "--html", str(page),
                                      "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_page_renders_nodes_and_a_screenshot(chromium, typed_graph, tmp_path):
    page = tmp_path / "answer.html"
    assert ask_html(typed_graph, "Where was Douglas Adams born?", page)["answers"] == ["Cambridge"]
    rendered = dom(chromium, page, tmp_path)
    assert "Douglas Adams" in rendered.node_labels and "Cambridge" in rendered.node_labels
    assert "place_of_birth" in rendered.edge_labels
    assert rendered.title == "byokg evidence: Where was Douglas Adams born?"
    img = screenshot(chromium, page, tmp_path)
    assert len(img.getcolors(maxcolors=1 << 24)) > 50, "blank screenshot"
    box = 184 * 40  # one node box (NODE_W x NODE_H); most of it is fill
    assert count_color(img, ENTITY_FILL) > box // 2, "no question-entity box drawn"
    assert count_color(img, ANSWER_FILL) > box // 2, "no answer box drawn"


PWNED = "<script>document.title='pwned'</script>"


def test_hostile_graph_renders_as_text(chromium, tmp_path):
    person = f"Zorblax {PWNED}"
    city = "Quux\x1b]0;owned\x07City\u202e"
    graph = write_graph(tmp_path / "hostile.jsonl", [
        {"head": person, "relation": "born_in", "tail": city},
        {"head": person, "relation": f"rel{PWNED}", "tail": "</svg><b>x</b>"},
    ])
    page = tmp_path / "hostile.html"
    question = f"Where was {person} born?"
    assert ask_html(graph, question, page)["answers"] == [city]
    rendered = dom(chromium, page, tmp_path)
    assert rendered.title == f"byokg evidence: {question}"  # no script ran
    assert rendered.scripts == 0
    text = "".join(rendered.text)
    assert PWNED in text  # shown as text, whole
    assert "Quux\\x1b]0;owned\\x07City\\u202e" in text
    assert any(label.startswith("Zorblax <script>") for label in rendered.node_labels)
    img = screenshot(chromium, page, tmp_path)
    assert count_color(img, ENTITY_FILL) > 184 * 20 and count_color(img, ANSWER_FILL) > 184 * 20

    # the check can fail: the same page with the escaping undone runs the script
    raw = page.read_text(encoding="utf-8")
    broken = tmp_path / "broken.html"
    broken.write_text(raw.replace("&lt;script&gt;document.title=&#x27;pwned&#x27;&lt;/script&gt;",
                                  PWNED), encoding="utf-8")
    assert dom(chromium, broken, tmp_path).scripts > 0
    no_csp = tmp_path / "broken-no-csp.html"
    no_csp.write_text(broken.read_text(encoding="utf-8").replace(
        'http-equiv="Content-Security-Policy"', 'name="x-csp-removed"'), encoding="utf-8")
    assert dom(chromium, no_csp, tmp_path).title == "pwned"
