"""Property-graph CSV mapping: which CSV files hold which node labels and relationship types.

A mapping file (JSON or TOML) lists node specs (label, file, key column, typed properties,
display-name column) and edge specs (type, file, source/target label and column, typed
properties). Backends with a ``loader`` (Kùzu, Neo4j) read the CSVs through
:meth:`PGMapping.iter_nodes` / :meth:`PGMapping.iter_edges`, which return typed batches.

Semantics follow a Neo4j ``LOAD CSV … MERGE`` script: an empty cell is NULL (the property is
absent), the literal string ``NULL`` stays a string, a node key appears once (first row wins),
an edge type holds one edge per (source, target) pair unless ``dedupe`` is false, and an edge
whose endpoint is not a loaded node is skipped and counted (``MATCH`` finds nothing in Neo4j).

Rows are read strictly (every error names file:line): a row with fewer fields than the header,
or more (unless the spec sets ``extra_fields = "ignore"``, which then counts the rows it
shortened per file and names the first lines in the load summary), a NUL byte, a quote inside
an unquoted field, or a value that is not of its column's type is a bad row; with
``--skip-bad-rows`` bad rows are listed and counted instead. Lines are bounded by
:class:`byokg.io.readers.Limits`. Types: string, int, float, bool, date (ISO ``YYYY-MM-DD``) and
datetime (ISO).
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any
from typing import Literal

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import ValidationError
from pydantic import model_validator

from byokg.errors import InputError
from byokg.io.readers import Limits
from byokg.io.readers import RowReport
from byokg.io.readers import bounded_lines
from byokg.io.readers import check_regular
from byokg.io.readers import field_limit_error
from byokg.io.readers import stray_quote

if TYPE_CHECKING:
    from byokg.io.loading import LoadSummary

PropType = Literal["string", "int", "float", "bool", "date", "datetime"]
SHOWN_LINES = 5  # line numbers named per file in the summary
_TRUE = {"1", "true", "t", "yes", "y"}
_FALSE = {"0", "false", "f", "no", "n"}


class NodeSpec(BaseModel):
    """One node label read from one CSV file."""

    model_config = ConfigDict(extra="forbid")

    label: str
    file: str
    key: str  # column holding the node key (unique within the label)
    properties: dict[str, PropType] = {}  # column -> type; the key is always included
    name: str | None = None  # display-name column
    extra_fields: Literal["error", "ignore"] = "error"  # rows longer than the header

    @model_validator(mode="after")
    def _key_is_a_property(self) -> NodeSpec:
        if self.key not in self.properties:
            self.properties = {self.key: "string", **self.properties}
        if self.name is not None and self.name not in self.properties:
            self.properties[self.name] = "string"
        return self


class EdgeSpec(BaseModel):
    """One relationship type read from one CSV file (source and target found by key)."""

    model_config = ConfigDict(extra="forbid")

    type: str
    file: str
    src_label: str
    src_column: str
    dst_label: str
    dst_column: str
    properties: dict[str, PropType] = {}
    dedupe: bool = True  # MERGE semantics: one edge per (src, dst) pair; first row wins
    extra_fields: Literal["error", "ignore"] = "error"  # "ignore" = LOAD CSV WITH HEADERS


class PGMapping(BaseModel):
    """A property-graph mapping: node specs and edge specs over CSV files."""

    model_config = ConfigDict(extra="forbid")

    description: str | None = None
    nodes: list[NodeSpec]
    edges: list[EdgeSpec] = []

    @model_validator(mode="after")
    def _labels_known(self) -> PGMapping:
        labels = [n.label for n in self.nodes]
        if len(set(labels)) != len(labels):
            dup = sorted({x for x in labels if labels.count(x) > 1})
            raise ValueError(f"node label(s) {dup} are mapped twice; use one spec per label")
        for i, e in enumerate(self.edges):
            for side in ("src_label", "dst_label"):
                if getattr(e, side) not in labels:
                    raise ValueError(
                        f"edges[{i}].{side} = {getattr(e, side)!r} is not a mapped node label "
                        f"(known: {labels})"
                    )
        return self

    # ------------------------------------------------------------------ loading the file
    @classmethod
    def load(cls, path: str | Path) -> PGMapping:
        """Read a JSON or TOML mapping; errors name the file and the field."""
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot read mapping: {exc.strerror}", source=str(p)) from None
        try:
            data = tomllib.loads(text) if p.suffix.lower() == ".toml" else json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"invalid JSON: {exc.msg}", source=str(p), line=exc.lineno) from None
        except tomllib.TOMLDecodeError as exc:
            raise InputError(f"invalid TOML: {exc}", source=str(p)) from None
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(str(x) for x in err["loc"]) or None
            raise InputError(
                f"{err['msg']} ({len(exc.errors())} error(s) in the mapping)", source=str(p), field=loc
            ) from None

    # ------------------------------------------------------------------ reading CSVs
    def iter_nodes(self, base_dir: str | Path, *, batch_size: int = 10_000,
                   skip_bad_rows: bool = False, report: PGLoadReport | None = None,
                   limits: Limits | None = None,
                   ) -> Iterator[tuple[NodeSpec, list[dict[str, Any]]]]:
        """Per node spec, batches of typed property dicts (incl. the key); duplicates dropped."""
        report = report if report is not None else PGLoadReport()
        for i, spec in enumerate(self.nodes):
            path = mapped_file(base_dir, spec.file, f"nodes[{i}].file")
            rows = _read_rows(path, spec.properties, report, skip_bad_rows,
                              required=(spec.key,), extra_fields=spec.extra_fields,
                              limits=limits)
            yield from _batches(spec, self._new_nodes(spec, rows, report), batch_size)

    @staticmethod
    def _new_nodes(spec: NodeSpec, rows: Iterator[tuple[int, dict[str, Any]]],
                   report: PGLoadReport) -> Iterator[dict[str, Any]]:
        """The rows of ``spec`` whose key was not seen before (later ones counted duplicates)."""
        seen: set[Any] = set()
        for _line, row in rows:
            k = row[spec.key]
            if k in seen:
                report.duplicates += 1
                continue
            seen.add(k)
            report.nodes += 1
            yield row

    def node_keys(self, base_dir: str | Path, *, limits: Limits | None = None,
                  ) -> dict[str, set[Any]]:
        """Keys of every label (for checking edge endpoints)."""
        keys: dict[str, set[Any]] = {n.label: set() for n in self.nodes}
        for spec, batch in self.iter_nodes(base_dir, skip_bad_rows=True, limits=limits):
            keys[spec.label].update(r[spec.key] for r in batch)
        return keys

    def unused_files(self, base_dir: str | Path) -> list[str]:
        """CSV files in ``base_dir`` the mapping does not name (reported, never read)."""
        named = {n.file for n in self.nodes} | {e.file for e in self.edges}
        return sorted(f.name for f in Path(base_dir).iterdir()
                      if f.is_file() and f.suffix.lower() in (".csv", ".tsv")
                      and f.name not in named)

    def iter_edges(self, base_dir: str | Path, *, batch_size: int = 10_000,
                   skip_bad_rows: bool = False, report: PGLoadReport | None = None,
                   known_keys: dict[str, set[Any]] | None = None,
                   limits: Limits | None = None,
                   ) -> Iterator[tuple[EdgeSpec, list[dict[str, Any]]]]:
        """Per edge spec, batches of dicts ``{"src", "dst", **typed properties}``.

        Endpoint keys are typed like the node keys. Edges whose source or target is not a
        node of the mapping are skipped and counted in ``report.dangling``.
        """
        report = report if report is not None else PGLoadReport()
        if known_keys is None:
            known_keys = self.node_keys(base_dir, limits=limits)
        key_types = {n.label: n.properties[n.key] for n in self.nodes}
        for i, spec in enumerate(self.edges):
            cols = {"src": (spec.src_column, key_types[spec.src_label]),
                    "dst": (spec.dst_column, key_types[spec.dst_label])}
            path = mapped_file(base_dir, spec.file, f"edges[{i}].file")
            rows = _read_rows(path, dict(spec.properties), report,
                              skip_bad_rows, required=(spec.src_column, spec.dst_column),
                              extra=cols, extra_fields=spec.extra_fields, limits=limits)
            kept = _new_edges(spec, rows, report, known_keys[spec.src_label],
                              known_keys[spec.dst_label])
            yield from _batches(spec, kept, batch_size)


def mapped_file(base_dir: str | Path, name: str, field: str) -> Path:
    """The CSV a mapping's ``file`` names: a relative path inside ``base_dir`` (the folder given
    on the command line), a regular file. An absolute path or one that climbs out with ``..``
    is refused: a mapping cannot make byokg read files elsewhere (the folder itself is the
    user's choice, so a symlink the user put in it is followed)."""
    base = Path(base_dir)
    rel = Path(name)
    if rel.is_absolute() or ".." in rel.parts or not rel.parts:
        raise InputError(f"{field} = {name[:200]!r} points outside the CSV folder {base}; a "
                         "mapping names files inside the folder given on the command line "
                         "(a relative path without '..')", field=field)
    path = base / rel
    if not path.exists():
        raise InputError(f"{field}: no such file in {base}: {name[:200]!r}", field=field)
    check_regular(path)
    return path


def _new_edges(spec: EdgeSpec, rows: Iterator[tuple[int, dict[str, Any]]], report: PGLoadReport,
               src_keys: set[Any], dst_keys: set[Any]) -> Iterator[dict[str, Any]]:
    """The rows of ``spec`` whose endpoints are loaded nodes (others counted dangling), one per
    (source, target) pair when the spec deduplicates."""
    seen: set[tuple[Any, Any]] = set()
    for _line, row in rows:
        src, dst = row["src"], row["dst"]
        if src not in src_keys or dst not in dst_keys:
            report.dangling += 1
            continue
        if spec.dedupe:
            if (src, dst) in seen:
                report.duplicates += 1
                continue
            seen.add((src, dst))
        report.edges += 1
        yield row


def _batches(spec: Any, rows: Iterator[dict[str, Any]], size: int) -> Iterator[tuple[Any, list]]:
    """``(spec, batch)`` for consecutive batches of at most ``size`` rows."""
    batch: list[dict[str, Any]] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= size:
            yield spec, batch
            batch = []
    if batch:
        yield spec, batch


@dataclass(kw_only=True)
class PGLoadReport(RowReport):
    """Counts of a property-graph load (rows that became nodes/edges, and what was skipped)."""

    nodes: int = 0
    edges: int = 0
    duplicates: int = 0
    dangling: int = 0  # edges whose endpoint is not a loaded node
    # per file: line numbers of rows with more fields than the header whose extras were
    # ignored (extra_fields = "ignore"); a file read by several specs is counted once
    shortened: dict[str, list[int]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    _counted: set[str] = field(default_factory=set, repr=False)

    @property
    def long_rows(self) -> int:
        return sum(len(v) for v in self.shortened.values())

    def summary(self, target: str) -> LoadSummary:
        """The ``byokg load`` summary of this load into ``target`` (what was skipped named)."""
        from byokg.io.loading import LoadSummary

        out = LoadSummary(target=target, nodes=self.nodes, triplets=self.edges,
                          duplicates=self.duplicates)
        out.absorb(self)
        if self.dangling:
            out.notes.append(f"{self.dangling} edge row(s) skipped: source or target is not a "
                             "loaded node")
        for name, lines in self.shortened.items():
            shown = ", ".join(map(str, lines[:SHOWN_LINES])) + (", …" if len(lines) > SHOWN_LINES
                                                                 else "")
            out.notes.append(f"{name}: {len(lines)} row(s) had more fields than the header; the "
                             f'extra fields were ignored (extra_fields = "ignore"), lines {shown}')
        out.notes.extend(self.notes)
        return out


def _convert(value: str, typ: str) -> Any:
    if typ == "string":
        return value
    if typ == "int":
        return int(value)
    if typ == "float":
        return float(value)
    if typ == "date":
        return dt.date.fromisoformat(value.strip()[:10])
    if typ == "datetime":
        return dt.datetime.fromisoformat(value.strip())
    low = value.strip().lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    raise ValueError(f"not a boolean: {value!r}")


def _read_rows(
    path: Path,
    types: dict[str, str],
    report: PGLoadReport,
    skip_bad_rows: bool,
    *,
    required: tuple[str, ...],
    extra: dict[str, tuple[str, str]] | None = None,
    extra_fields: str = "error",
    limits: Limits | None = None,
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Typed rows of one CSV: (line number, {column: value}); empty cells are left out as None.

    Long because opening, reading and typing share the raw line kept for error messages; every
    error names the file and line in one place."""
    src = str(path)
    limits = limits or Limits.from_env()
    try:
        fh = open(path, encoding="utf-8-sig", newline="")
    except OSError as exc:
        raise InputError(f"cannot open: {exc.strerror}", source=src) from None
    first_read = src not in report._counted
    report._counted.add(src)
    raw: list[str] = []

    def lines() -> Iterator[str]:
        for line in bounded_lines(fh, src, limits):
            raw.append(line)
            yield line

    with fh:
        reader = csv.reader(lines())
        try:
            header = next(reader, None) or []
            raw.clear()
            needed = list(types) + list(required) + [c for c, _ in (extra or {}).values()]
            missing = [c for c in dict.fromkeys(needed) if c not in header]
            if missing:  # the header itself is not echoed: the file may not be a CSV
                raise InputError(f"column(s) {missing} not in the header ({len(header)} "
                                 "column(s)); check the mapping's column names", source=src,
                                 line=1)
            pos = {c: header.index(c) for c in dict.fromkeys(needed)}
            items = list((extra or {}).items()) + [(c, (c, t)) for c, t in types.items()]
            for row in reader:
                record, raw[:] = "".join(raw), []
                line = reader.line_num
                if not row:
                    continue
                reason = _row_problem(row, header, record, extra_fields)
                if reason == "shortened":
                    reason = None
                    if first_read:
                        report.shortened.setdefault(path.name, []).append(line)
                out: dict[str, Any] = {}
                if not reason:
                    reason = _typed_row(row, pos, required, items, out)
                if reason:
                    if not skip_bad_rows:
                        raise InputError(reason + "; fix the row or pass --skip-bad-rows",
                                         source=src, line=line)
                    report.bad(f"{src}:{line}: {reason}")
                    continue
                yield line, out
        except csv.Error as exc:
            if "field larger than field limit" in str(exc):
                raise InputError(field_limit_error(limits), source=src,
                                 line=reader.line_num) from None
            raise InputError(f"unreadable CSV: {exc}", source=src, line=reader.line_num) from None
        except UnicodeDecodeError as exc:
            raise InputError(f"not UTF-8 text ({exc.reason})", source=src) from None


def _typed_row(row: list[str], pos: dict[str, int], required: tuple[str, ...],
               items: list[tuple[str, tuple[str, str]]], out: dict[str, Any]) -> str | None:
    """Fill ``out`` with the row's typed values; why the row is bad, or None."""
    for col in required:
        if not row[pos[col]]:
            return f"empty key column {col!r}"
    for out_name, (col, typ) in items:
        value = row[pos[col]]
        if value == "":
            out[out_name] = None
            continue
        try:
            out[out_name] = _convert(value, typ)
        except ValueError:
            a = "an" if typ == "int" else "a"
            return f"column {col!r}: {value!r} is not {a} {typ}"
    return None


def _row_problem(row: list[str], header: list[str], record: str, extra_fields: str) -> str | None:
    """Why a row is bad (None: fine; ``"shortened"``: too long, extras ignored by the spec)."""
    if '"' in record:
        bad = stray_quote(record, ",")
        if bad is not None:
            col = header[bad - 1] if bad <= len(header) else f"field {bad}"
            return (f"a quote inside the unquoted field {col!r} (field {bad}); quote the whole "
                    "field and double the quotes in it")
    nul = next((i for i, x in enumerate(row) if "\x00" in x), None)
    if nul is not None:
        col = header[nul] if nul < len(header) else f"field {nul + 1}"
        return f"NUL byte in field {col!r}"
    if len(row) < len(header):
        return (f"expected {len(header)} fields (as the header), found {len(row)}: the row is "
                "missing fields")
    if len(row) > len(header):
        if extra_fields == "ignore":
            return "shortened"
        return (f"expected {len(header)} fields (as the header), found {len(row)}; set "
                'extra_fields = "ignore" on this spec in the mapping to drop the extra fields')
    return None


def northwind_mapping_path() -> Path:
    """The packaged mapping of the Neo4j Northwind demo graph (``northwind.cypher``)."""
    return Path(__file__).parents[1] / "data" / "northwind_mapping.json"


def load_northwind(into_uri: str, data_dir: str | Path, *, mapping: str | Path | None = None):
    """Load the Northwind CSVs (``data_dir`` = the ``graph/import`` folder or its parent) into a
    store with a property-graph loader (``kuzu:PATH``, ``bolt://…``); returns the LoadSummary."""
    from byokg.io.loading import load_into

    d = Path(data_dir)
    if (d / "import").is_dir():
        d = d / "import"
    elif (d / "graph" / "import").is_dir():
        d = d / "graph" / "import"
    return load_into([str(d)], into_uri, mapping=str(mapping or northwind_mapping_path()))
