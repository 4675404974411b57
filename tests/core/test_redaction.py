"""byokg.redaction: the one redaction every written setting, URI and message goes through."""

from __future__ import annotations

from byokg.redaction import redact_argv
from byokg.redaction import redact_settings
from byokg.redaction import redact_text
from byokg.redaction import redact_uri


def test_uris_lose_passwords_and_secret_options_only():
    assert redact_uri("bolt://neo4j:pw@db:7687/g?x=1&api_key=abc") == (
        "bolt://neo4j:***@db:7687/g?x=1&api_key=***")
    assert redact_uri("neo4j+s://a:p%40ss@h") == "neo4j+s://a:***@h"
    assert redact_uri("kuzu:./g.kz") == "kuzu:./g.kz"
    assert redact_uri("bolt://db:7687/g") == "bolt://db:7687/g"


def test_text_and_command_lines():
    msg = "cannot reach bolt://u:secret1@h:1/x (see https://x.example/a?token=zz&b=1)"
    out = redact_text(msg)
    assert "secret1" not in out and "zz" not in out and "b=1" in out and "bolt://u:***@h" in out
    assert redact_argv(["byokg", "--password", "pw", "--api-key=zz", "bolt://a:b@c", "x"]) == [
        "byokg", "--password", "***", "--api-key=***", "bolt://a:***@c", "x"]


def test_settings_mask_secret_fields_at_any_depth():
    cfg = {"llm_options": {"api_key": "sk-1", "apiKey": "sk-2", "max_tokens": 5, "token": None},
           "graph": "bolt://u:p@h", "params": {"x": {"aws_secret_access_key": "k"}},
           "list": ["bolt://u:p@h"], "n": 3}
    out = redact_settings(cfg)
    assert out["llm_options"] == {"api_key": "***", "apiKey": "***", "max_tokens": 5,
                                  "token": None}
    assert out["graph"] == "bolt://u:***@h" and out["list"] == ["bolt://u:***@h"]
    assert out["params"]["x"]["aws_secret_access_key"] == "***" and out["n"] == 3
    assert cfg["llm_options"]["api_key"] == "sk-1"  # a copy: the run still has its key
