"""Per-question subgraphs in RoG's format (``rog-webqsp`` / ``rog-cwq``): every question is
answered from its own graph, records are streamed, bad records are reported by line or row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from byokg.cli import cli
from byokg.errors import ConfigError
from byokg.errors import InputError
from byokg.eval.runner import EvalSettings
from byokg.eval.runner import run_eval
from byokg.eval.subgraphs import load_rog

# Three questions, each answerable only from its own graph: Fredville occurs in no other graph,
# and "Springfield" lies in Illinois in one record's graph and in Massachusetts in another's,
# under the same question text. The fourth names its Freebase-style ids through entity_names.
RECORDS = [
    {"id": "fr", "question": "What is the capital of Freedonia?", "answer": ["Fredville"],
     "q_entity": ["Freedonia"], "a_entity": ["Fredville"], "choices": [],
     "graph": [["Freedonia", "location.country.capital", "Fredville"],
               ["Freedonia", "location.country.official_language", "Freedonian"],
               ["Fredville", "location.location.containedby", "Freedonia"]]},
    {"id": "sp-il", "question": "Which state is Springfield in?", "answer": ["Illinois"],
     "q_entity": ["Springfield"], "a_entity": ["Illinois"], "choices": [],
     "graph": [["Springfield", "location.location.containedby", "Illinois"],
               ["Springfield", "location.citytown.postal_codes", "62701"],
               ["Illinois", "location.location.contains", "Chicago"]]},
    {"id": "sp-ma", "question": "Which state is Springfield in?", "answer": ["Massachusetts"],
     "q_entity": ["Springfield"], "a_entity": ["Massachusetts"], "choices": [],
     "graph": [["Springfield", "location.location.containedby", "Massachusetts"],
               ["Massachusetts", "location.location.contains", "Boston"]]},
    {"id": "mid", "question": "Who is the spouse of Ada Quell?", "answer": ["Bram Quell"],
     "q_entity": ["Ada Quell"], "a_entity": ["Bram Quell"], "choices": [],
     "graph": [["m.0ada", "people.person.spouse_s", "m.0cvt1"],
               ["m.0cvt1", "people.marriage.spouse", "m.0bram"],
               ["m.0cvt1", "people.marriage.spouse", "m.0ada"],
               ["m.0ada", "people.person.profession", "m.0eng"]],
     "entity_names": {"m.0ada": "Ada Quell", "m.0bram": "Bram Quell", "m.0eng": "Engineer"}},
]
BAD = {"id": "bad", "question": "Who wrote Hamlet?", "answer": ["William Shakespeare"],
       "q_entity": ["Hamlet"], "a_entity": [], "choices": [],
       "graph": [["Hamlet", "book.written_work.author", "William Shakespeare"],
                 ["Hamlet", "book.book.genre"]]}  # a triple of two strings
NO_GOLD = {"id": "nogold", "question": "Who?", "answer": [], "q_entity": [], "a_entity": [],
           "choices": [], "graph": [["a", "r", "b"]]}


def _jsonl(path: Path, records: list[dict], *, bad_at: int | None = None) -> Path:
    lines = [json.dumps(r) for r in records]
    if bad_at is not None:
        lines.insert(bad_at, json.dumps(BAD))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _parquet(path: Path, records: list[dict]) -> Path:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    rows = [{k: r.get(k) for k in ("id", "question", "answer", "q_entity", "a_entity", "graph")}
            for r in records]
    schema = pa.schema([("id", pa.string()), ("question", pa.string()),
                        ("answer", pa.list_(pa.string())), ("q_entity", pa.list_(pa.string())),
                        ("a_entity", pa.list_(pa.string())),
                        ("graph", pa.list_(pa.list_(pa.string())))])
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path, row_group_size=2)
    return path


def _by_id(out: Path) -> dict[str, dict]:
    recs = [json.loads(x) for x in (out / "predictions.jsonl").read_text().splitlines()]
    return {r["id"]: r for r in recs}


def test_each_question_is_answered_from_its_own_graph_offline(tmp_path):
    data = _jsonl(tmp_path / "test.jsonl", RECORDS + [NO_GOLD], bad_at=2)
    summary = run_eval(EvalSettings(dataset="rog-webqsp", data=str(data), strategy="offline"),
                       tmp_path / "run", progress=False)
    got = _by_id(tmp_path / "run")
    assert set(got) == {"fr", "sp-il", "sp-ma", "mid"}
    for qid in got:  # the same question text gets each graph's own answer
        assert got[qid]["answers"][:1] == got[qid]["gold"], (qid, got[qid]["answers"])
        assert got[qid]["metrics"]["hit@1_exact"] == 1.0
        assert got[qid]["subgraph"]["gold_in_graph"] is True
    assert got["mid"]["answers"][0] == "Bram Quell"  # shown by the name the record gives
    assert got["fr"]["subgraph"]["triplets"] == 3 and got["sp-ma"]["subgraph"]["triplets"] == 2
    # the malformed record (line 3 of the file) is named with its field; the run went on
    assert summary["bad_rows"] == [f"{data}:3: field 'graph[1]': [\"Hamlet\", \"book.book.genre\"] "
                                   "is not [head, relation, tail] of three non-empty strings"]
    assert [e["id"] for e in summary["excluded_examples"]] == ["nogold"]
    assert summary["n"] == 4 and summary["errors"] == 0
    report = (tmp_path / "run" / "report.md").read_text()
    assert "## Bad records" in report and "test.jsonl:3" in report
    assert "| hit_exact |" in report and "| gold_in_graph |" in report


class _Recorder:
    """An engine factory that answers with every tail of its store and notes each store's
    triples (to check which graph each question saw), without the offline reasoner."""

    def __init__(self) -> None:
        self.seen: dict[str, set[tuple[str, str, str]]] = {}

    def __call__(self, store, cfg):
        recorder = self

        class _Answer:
            def __init__(self, question):
                from byokg.contracts import Direction

                ids = [i for batch in store.iter_node_names() for i, _ in batch]
                nb = store.neighbors(ids, direction=Direction.OUT)
                self.triples = {(t.head, t.relation, t.tail) for n in nb.values()
                                for t in n.triplets}
                self.answers = sorted({t for _h, _r, t in self.triples})
                self.truncated, self.total = False, len(self.answers)
                self.context = []

                class _T:
                    events = ()
                    llm_calls = ()

                    def model_dump(self, **_):
                        return {}

                    def stage_seconds(self):
                        return {}

                self.trace = _T()

        class _Engine:
            config = cfg

            def ask(self, question):
                ans = _Answer(question)
                recorder.seen.setdefault(question, set()).update(ans.triples)
                return ans

        return _Engine()


def test_parquet_records_stream_each_with_its_graph(tmp_path):
    data = _parquet(tmp_path / "test-00000-of-00001.parquet", RECORDS[:3] + [BAD] + RECORDS[3:])
    rec = _Recorder()
    summary = run_eval(EvalSettings(dataset="rog-cwq", data=str(tmp_path / "test-*.parquet")),
                       tmp_path / "run", progress=False, engine_factory=rec)
    got = _by_id(tmp_path / "run")
    assert set(got) == {"fr", "sp-il", "sp-ma", "mid"}
    assert set(got["sp-il"]["answers"]) == {"Illinois", "62701", "Chicago"}
    assert set(got["sp-ma"]["answers"]) == {"Massachusetts", "Boston"}
    assert "Fredville" in got["fr"]["answers"] and not any(
        "Fredville" in got[q]["answers"] for q in ("sp-il", "sp-ma", "mid"))
    assert summary["bad_rows"] == [f"{data} row 4: field 'graph[1]': [\"Hamlet\", "
                                   "\"book.book.genre\"] is not [head, relation, tail] of three "
                                   "non-empty strings"]
    assert got["mid"]["subgraph"]["record"] == f"{data} row 5"


def test_records_are_read_while_answered_not_all_at_once(tmp_path, monkeypatch):
    from byokg.eval import subgraphs

    parsed: list[str] = []
    real_parse = subgraphs.parse_record
    monkeypatch.setattr(subgraphs, "parse_record",
                        lambda obj, where: parsed.append(where) or real_parse(obj, where))
    many = [dict(RECORDS[0], id=f"q{i}", graph=RECORDS[0]["graph"] + [[f"x{i}", "r", "y"]])
            for i in range(24)]
    data = _jsonl(tmp_path / "many.jsonl", many)
    for workers in (1, 3):
        parsed.clear()
        ahead: list[int] = []
        rec = _Recorder()

        def factory(store, cfg, rec=rec, ahead=ahead):
            ahead.append(len(parsed) - len(ahead))  # records read but not yet started
            return rec(store, cfg)

        summary = run_eval(EvalSettings(dataset="rog-webqsp", data=str(data), workers=workers),
                           tmp_path / f"run{workers}", progress=False, engine_factory=factory)
        assert summary["n"] == 24 and len(parsed) == 24
        # each question's graph is read shortly before it is answered, never the whole file
        assert max(ahead) <= 2 * workers + 1, ahead


def test_resume_and_limit_with_streamed_records(tmp_path):
    data = _jsonl(tmp_path / "t.jsonl", RECORDS)
    out = tmp_path / "run"
    settings = EvalSettings(dataset="rog-webqsp", data=str(data), limit=2)
    first = run_eval(settings, out, progress=False, engine_factory=_Recorder())
    assert first["n"] == 2
    rec = _Recorder()
    again = run_eval(settings.model_copy(update={"limit": None}), out, resume=True,
                     progress=False, engine_factory=rec)
    assert again["n"] == 4
    assert set(rec.seen) == {RECORDS[2]["question"], RECORDS[3]["question"]}  # only the rest ran


def test_empty_graph_is_scored_not_an_error(tmp_path):
    data = _jsonl(tmp_path / "t.jsonl", [dict(RECORDS[0], id="empty", graph=[])])
    summary = run_eval(EvalSettings(dataset="rog-webqsp", data=str(data)), tmp_path / "run",
                       progress=False)
    rec = _by_id(tmp_path / "run")["empty"]
    assert rec["answers"] == [] and "no triplets" in rec["note"] and "error" not in rec
    assert summary["metrics"]["hit"]["mean"] == 0.0 and summary["errors"] == 0


@pytest.mark.parametrize("bad, where", [
    ("[1, 2]", "expected a JSON object"),
    (json.dumps({"question": "q", "answer": "Paris", "graph": []}), "field 'answer'"),
    (json.dumps({"answer": ["a"], "graph": []}), "field 'question'"),
    (json.dumps({"question": "q", "answer": ["a"]}), "field 'graph'"),
    (json.dumps({"question": "q", "answer": ["a"], "graph": [["a", "", "b"]]}), "field 'graph[0]'"),
    (json.dumps({"question": "q", "answer": ["a"], "graph": [], "entity_names": ["x"]}),
     "field 'entity_names'"),
    (json.dumps(dict(RECORDS[0])), "field 'id': 'fr' was already used"),
])
def test_bad_records_are_named_by_line_and_field(tmp_path, bad, where):
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(RECORDS[0]) + "\n\n" + bad + "\n", encoding="utf-8")
    ds = load_rog(path)
    assert [ex.id for ex in ds.iter_examples()] == ["fr"]
    assert len(ds.bad_rows) == 1 and ds.bad_rows[0].startswith(f"{path}:3: ")
    assert where in ds.bad_rows[0]


def test_unreadable_data_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        load_rog(tmp_path / "missing.jsonl")
    with pytest.raises(InputError, match="no file matches"):
        load_rog(str(tmp_path / "test-*.parquet"))
    (tmp_path / "x.csv").write_text("a,b,c\n")
    with pytest.raises(InputError, match="JSON Lines"):
        load_rog(tmp_path / "x.csv")
    (tmp_path / "broken.parquet").write_bytes(b"PAR1 not really")
    with pytest.raises(InputError, match="Parquet"):
        list(load_rog(tmp_path / "broken.parquet").iter_examples())


def test_graph_option_is_refused_for_per_question_datasets(tmp_path):
    data = _jsonl(tmp_path / "t.jsonl", RECORDS[:1])
    res = CliRunner().invoke(cli, ["eval", "--dataset", "rog-webqsp", "--data", str(data),
                                   "--graph", "memory:demo", "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and "drop it" in res.output and not (tmp_path / "o").exists()
    with pytest.raises(ConfigError, match="drop --graph"):
        run_eval(EvalSettings(dataset="rog-cwq", data=str(data), graph="memory:demo"),
                 tmp_path / "o2", progress=False)
    res = CliRunner().invoke(cli, ["eval", "--dataset", "webqsp", "--data", str(data),
                                   "--out", str(tmp_path / "o3")])
    assert res.exit_code == 2 and "--graph" in res.output


def test_cli_runs_rog_without_graph_and_lists_bad_records(tmp_path):
    data = _jsonl(tmp_path / "t.jsonl", RECORDS[:1], bad_at=1)
    res = CliRunner().invoke(cli, ["eval", "--dataset", "rog-webqsp", "--data", str(data),
                                   "--out", str(tmp_path / "o"), "--json"])
    assert res.exit_code == 0, res.output
    brief = json.loads(res.output.strip().splitlines()[-1])
    assert brief["n"] == 1 and brief["bad_records"] == 1
    assert brief["metrics"]["hit_exact"] == 1.0
