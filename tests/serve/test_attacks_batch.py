"""The batch (``byokg ask --file … --out …``), the eval archive and the loaders under hostile
input (issue 26): secrets never written, bad text refused per line with the batch going on, ids
compared as written, no symlink followed, no FIFO read, mapping files confined."""

from __future__ import annotations

import json
import os
import threading

import pytest
from serve_helpers import rows
from serve_helpers import run

from byokg.errors import InputError

SECRET = "sk-TOPSECRET-4242"
PASSWORD = "hunter2-Secret"


def _config(tmp_path, key: str) -> str:
    cfg = tmp_path / f"cfg-{key[-4:]}.json"
    cfg.write_text(json.dumps({"llm_options": {"api_key": key, "temperature": 0},
                               "embedder": "lexical"}), encoding="utf-8")
    return str(cfg)


# --------------------------------------------------------------------------- 4. secrets


def test_batch_settings_never_hold_the_api_key(tmp_path, capsys):
    """Finding 4: ``llm_options.api_key`` was written to ``OUT.run.json`` and printed by a
    resume that saw a change."""
    qfile = tmp_path / "q.txt"
    qfile.write_text("Where was Satchmo born?\n", encoding="utf-8")
    out = tmp_path / "a.jsonl"
    base = ["ask", "--file", str(qfile), "--out", str(out), "--graph", "memory:demo"]
    code, _, err = run(capsys, *base, "--config", _config(tmp_path, SECRET))
    assert code == 0, err
    run_json = (tmp_path / "a.jsonl.run.json").read_text(encoding="utf-8")
    assert SECRET not in run_json
    assert json.loads(run_json)["run_config"]["llm_options"]["api_key"] == "***"
    # a resume with another key and another setting: the change named, no key shown
    other = "sk-OTHERSECRET-9999"
    code, _, err = run(capsys, *base, "--config", _config(tmp_path, other), "--iterations", "1")
    assert code == 1 and "run_config.iterations" in err
    assert SECRET not in err and other not in err
    assert SECRET not in out.read_text(encoding="utf-8")


def test_eval_config_never_holds_secrets(tmp_path, monkeypatch):
    """Finding 4: the Bolt password and the API key were written to the eval's
    ``config.json``, even when the connection failed."""
    from byokg.config import RunConfig
    from byokg.eval.runner import EvalSettings
    from byokg.eval.runner import run_eval

    cfg = RunConfig(llm_options={"api_key": SECRET})
    uri = f"bolt://neo4j:{PASSWORD}@127.0.0.1:1/nowhere"
    monkeypatch.setattr("sys.argv", ["byokg", "eval", "--graph", uri])
    failed = tmp_path / "failed"
    settings = EvalSettings(dataset="jsonl", data=str(tmp_path / "none.jsonl"), graph=uri,
                            config=cfg)
    with pytest.raises(Exception) as exc_info:
        run_eval(settings, failed)
    assert PASSWORD not in str(exc_info.value)
    assert not (failed / "config.json").exists()  # nothing archived for a run that never ran
    # a run that does run: the archive names the graph and the options, never the secrets
    data = tmp_path / "qs.jsonl"
    data.write_text(json.dumps({"id": "1", "question": "Where was Satchmo born?",
                                "answers": ["New Orleans"]}) + "\n", encoding="utf-8")
    monkeypatch.setattr("sys.argv", ["byokg", "eval", "--config", "c.json",
                                     f"--api-key={SECRET}", uri])
    ok = tmp_path / "ok"
    settings = EvalSettings(dataset="jsonl", data=str(data), graph="memory:demo", config=cfg)
    run_eval(settings, ok, progress=False)
    text = (ok / "config.json").read_text(encoding="utf-8")
    assert SECRET not in text and PASSWORD not in text
    record = json.loads(text)
    assert record["settings"]["config"]["llm_options"]["api_key"] == "***"
    assert any("neo4j:***@127.0.0.1:1" in a for a in record["command"])
    # resuming with the same settings still works (the archived form is compared)
    run_eval(settings, ok, resume=True, progress=False)


# --------------------------------------------------------------------------- 7. bad text


def test_bad_text_in_a_batch_is_a_row_error_and_the_batch_goes_on(tmp_path, capsys):
    """Finding 7: a lone surrogate aborted the whole batch (later questions never asked)."""
    qfile = tmp_path / "q.jsonl"
    qfile.write_bytes(b'{"id": "a", "question": "Where was Satchmo born?"}\n'
                      b'{"id": "b", "question": "Where was \\ud800 born?"}\n'
                      b'{"id": "c", "question": "Where was Wynton Marsalis \xff born?"}\n'
                      b'{"id": "d", "question": "What is the capital of Jamaica?"}\n')
    out = tmp_path / "a.jsonl"
    args = ["ask", "--file", str(qfile), "--out", str(out), "--graph", "memory:demo"]
    code, _, err = run(capsys, *args)
    assert code == 0, err
    got = {r["id"]: r for r in rows(out)}
    assert got["a"]["answers"][:1] == ["New Orleans"]
    assert got["d"]["answers"][:1] == ["Kingston"]
    assert "surrogate" in got["b"]["error"] and "q.jsonl:2" in got["b"]["error"]
    assert "UTF-8" in got["c"]["error"] and "q.jsonl:3" in got["c"]["error"]
    assert "2 answered, 2 failed" in err
    code, _, err = run(capsys, *args)  # a resume asks the bad lines again and goes on
    assert code == 0 and "2 failed" in err and "2 already answered" in err


def test_bad_text_in_a_plain_text_batch(tmp_path, capsys):
    qfile = tmp_path / "q.txt"
    qfile.write_bytes(b"Where was Satchmo born?\nWhere was \xc3 born?\n"
                      b"What is the capital of Jamaica?\n")
    out = tmp_path / "a.jsonl"
    code, _, err = run(capsys, "ask", "--file", str(qfile), "--out", str(out), "--graph",
                       "memory:demo")
    assert code == 0, err
    got = rows(out)
    assert [bool(r["error"]) for r in got] == [False, True, False]
    assert "q.txt:2" in got[1]["error"]


def test_a_lone_surrogate_in_a_file_to_load_names_the_file_and_line(tmp_path):
    from byokg.io.loading import load_into

    src = tmp_path / "rows.jsonl"
    src.write_text('{"head": "Ada", "relation": "knows", "tail": "Bo"}\n'
                   '{"head": "Cy\\udc80", "relation": "knows", "tail": "Bo"}\n', encoding="utf-8")
    for into in (f"memory:{tmp_path / 'g.jsonl'}", f"kuzu:{tmp_path / 'g.kz'}"):
        if into.startswith("kuzu"):
            pytest.importorskip("kuzu")
        with pytest.raises(InputError) as exc_info:
            load_into([str(src)], into)
        msg = str(exc_info.value)
        assert "rows.jsonl" in msg and ":2" in msg and "surrogate" in msg, msg


# --------------------------------------------------------------------------- 8. ids


def test_ids_are_compared_as_written(tmp_path, capsys):
    """Finding 8: ids ``1`` and ``"1"`` collided; a different question was skipped."""
    qfile = tmp_path / "q.jsonl"
    qfile.write_text('{"id": 1, "question": "Where was Satchmo born?"}\n'
                     '{"id": "1", "question": "What is the capital of Jamaica?"}\n',
                     encoding="utf-8")
    out = tmp_path / "a.jsonl"
    code, _, err = run(capsys, "ask", "--file", str(qfile), "--out", str(out), "--graph",
                       "memory:demo")
    assert code == 1, err
    assert "q.jsonl:2" in err and "line 1" in err and "conflict" in err
    from byokg.commands.batch import BatchSummary
    from byokg.commands.batch import read_questions

    qfile.write_text('{"id": 1, "question": "A?"}\n{"id": 2, "question": "B?"}\n'
                     '{"id": 1, "question": "A?"}\n{"id": "x", "question": "C?"}\n',
                     encoding="utf-8")
    summary = BatchSummary()
    items = read_questions(qfile, summary)
    assert [i.id for i in items] == ["1", "2", "x"] and summary.duplicates == 1


# --------------------------------------------------------------------------- 9. symlinks


def test_batch_files_never_follow_a_planted_symlink(tmp_path, capsys):
    """Finding 9: ``OUT.run.json`` and ``OUT.tmp`` followed a symlink planted beside --out."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    qfile = tmp_path / "q.jsonl"
    qfile.write_text('{"id": "a", "question": "Where was Satchmo born?"}\n'
                     '{"id": "b", "question": "Where was \\ud800 born?"}\n', encoding="utf-8")
    out = tmp_path / "a.jsonl"
    os.symlink(victim, tmp_path / "a.jsonl.run.json")
    args = ["ask", "--file", str(qfile), "--out", str(out), "--graph", "memory:demo"]
    code, _, err = run(capsys, *args)
    assert code == 0, err
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert not (tmp_path / "a.jsonl.run.json").is_symlink()
    # the resume rewrites OUT without its failed row through OUT.tmp: plant that one too
    os.symlink(victim, tmp_path / "a.jsonl.tmp")
    code, _, err = run(capsys, *args)
    assert code == 0, err
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert [r["id"] for r in rows(out)] == ["a", "b"]


# --------------------------------------------------------------------------- 10. FIFO


def test_a_fifo_in_a_loaded_folder_is_an_error_not_a_hang(tmp_path):
    """Finding 10: ``byokg load`` of a folder holding a FIFO hung."""
    from byokg.io.loading import load_into

    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "a.csv").write_text("head,relation,tail\nAda,knows,Bo\n", encoding="utf-8")
    fifo = folder / "b.csv"
    os.mkfifo(fifo)
    box: dict = {}

    def go() -> None:
        try:
            load_into([str(folder)], f"memory:{tmp_path / 'g.jsonl'}")
        except Exception as exc:  # noqa: BLE001 - examined below
            box["exc"] = exc

    t = threading.Thread(target=go, daemon=True)
    t.start()
    t.join(20)
    if t.is_alive():  # free the stuck reader before failing
        with open(fifo, "w"):
            pass
        t.join(5)
        pytest.fail("loading a folder with a FIFO hung")
    exc = box.get("exc")
    assert isinstance(exc, InputError), exc
    assert "b.csv" in str(exc) and "not a regular file" in str(exc)


# --------------------------------------------------------------------------- 12. mapping files


def test_mapping_files_stay_in_the_folder_and_errors_show_no_content(tmp_path):
    """Finding 12: a mapping's ``file`` could point anywhere and the error echoed the file's
    first line."""
    from byokg.io.pgmapping import PGMapping

    secret = tmp_path / "secret.csv"
    secret.write_text("TOPSECRET-LINE,root:x:0:0\nmore\n", encoding="utf-8")
    data = tmp_path / "data"
    data.mkdir()
    (data / "people.csv").write_text("pid,name\n1,Ada\n", encoding="utf-8")
    for bad in ("../secret.csv", str(secret)):
        mapping = PGMapping.model_validate({"nodes": [
            {"label": "Person", "file": bad, "key": "pid"}]})
        with pytest.raises(InputError) as exc_info:
            list(mapping.iter_nodes(data))
        msg = str(exc_info.value)
        assert "outside" in msg and "nodes[0].file" in msg, msg
        assert "TOPSECRET" not in msg
    # a file inside the folder whose header lacks a column: named, its content not echoed
    (data / "odd.csv").write_text("TOPSECRET-HEADER,x\n1,2\n", encoding="utf-8")
    mapping = PGMapping.model_validate({"nodes": [{"label": "P", "file": "odd.csv",
                                                   "key": "pid"}]})
    with pytest.raises(InputError) as exc_info:
        list(mapping.iter_nodes(data))
    assert "pid" in str(exc_info.value) and "TOPSECRET" not in str(exc_info.value)
    ok = PGMapping.model_validate({"nodes": [{"label": "Person", "file": "people.csv",
                                              "key": "pid"}]})
    assert [b for _, b in ok.iter_nodes(data)] == [[{"pid": "1"}]]
