"""The graph's vocabulary: the words its owner's users say for its relations, labels and nodes.

One :class:`Vocabulary` per graph, part of the :class:`~byokg.graph.profile.GraphProfile` and
cached with it. Three parts:

- **names**: per label, the properties whose values name its nodes — the display property (one
  choice, overridable with ``?display=``) and every other name-like property (``knownName``
  beside ``fullName``, ``title`` beside ``name``, a list of ``aliases``), which are aliases for
  linking. The profile decides them from the values and the property names
  (:func:`byokg.graph.profile.build_profile`); every backend's ``iter_node_names`` yields one pair
  per alias, so every linking index finds a node by any of them.
- **relation phrases** in both directions: *forward* (head → tail: ``place_of_birth`` "born in")
  and *backward* (tail → head: "birthplace of"), and **label phrases** ("scholar"). Each phrase
  says where it came from (:data:`Source`): ``name`` (derived from the relation's name and its
  domain and range by the language layer), ``lexicon`` (the graph owner's lexicon file,
  :func:`read_lexicon`) or ``llm`` (a one-time compilation by the run's LLM, :func:`compile_words`).
- where the lexicon came from (path and digest: a changed file rebuilds the vocabulary, keeping the
  LLM's phrases) and what the compilation cost.

Scorers read :meth:`Vocabulary.phrases` / :meth:`Vocabulary.label_phrases`; phrases are ordered
lexicon, llm, name (the owner knows best) and never repeat.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import logging
import re
import tomllib
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from typing import Literal

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import PrivateAttr

from byokg.errors import ConfigError
from byokg.language.analysis import lexical_phrase_score
from byokg.language.relwords import had_noun
from byokg.language.relwords import of_noun
from byokg.language.relwords import singular
from byokg.language.relwords import verbalize
from byokg.language.text import STOPWORDS
from byokg.language.thesaurus import gloss

__all__ = [
    "Compilation",
    "LabelWords",
    "Lexicon",
    "LexiconEntry",
    "NameProperty",
    "Phrase",
    "RelationWords",
    "Source",
    "Vocabulary",
    "apply_lexicon",
    "derive_vocabulary",
    "label_words",
    "read_lexicon",
    "relation_words",
]

log = logging.getLogger("byokg.graph.vocabulary")

Source = Literal["name", "lexicon", "llm"]
_ORDER: dict[str, int] = {"lexicon": 0, "llm": 1, "name": 2}
_FROZEN = ConfigDict(frozen=True)
MAX_PHRASE_CHARS = 80
MAX_PHRASES = 12  # per relation direction or label and source
# An LLM's phrase written for this many relations of one graph or more ("films", "movies" for
# the director, the cast and the genre) names the graph's topic, not a relation: similarity
# does not read it (the profile still shows it). The owner's lexicon is read as written.
LLM_SHARED = 3
MAX_LEXICON_BYTES = 10 * 2**20


class Phrase(BaseModel):
    """One way of saying a relation or a label, and where it came from."""

    model_config = _FROZEN

    text: str
    source: Source = "name"


class RelationWords(BaseModel):
    """How one relation is said: ``forward`` reads head → tail ("X born in Y"), ``backward``
    tail → head ("Y birthplace of X")."""

    model_config = _FROZEN

    relation: str
    forward: tuple[Phrase, ...] = ()
    backward: tuple[Phrase, ...] = ()


class NameProperty(BaseModel):
    """A property whose values name a label's nodes: the display (or a part of a composite
    display name) or an alias, and why."""

    model_config = _FROZEN

    property: str
    role: Literal["display", "alias"]
    why: str = ""


class LabelWords(BaseModel):
    """How one label's nodes are called ("scholar") and named (its name properties)."""

    model_config = _FROZEN

    label: str
    phrases: tuple[Phrase, ...] = ()
    names: tuple[NameProperty, ...] = ()

    @property
    def aliases(self) -> tuple[str, ...]:
        return tuple(n.property for n in self.names if n.role == "alias")


class LexiconSource(BaseModel):
    """The lexicon file a vocabulary was built with: its path and a digest of its content."""

    model_config = _FROZEN

    path: str
    digest: str


class Compilation(BaseModel):
    """What the one-time LLM compilation of phrases cost and covered."""

    model_config = _FROZEN

    model: str
    calls: int = 0
    relations: int = 0  # relations that got phrases
    labels: int = 0
    seconds: float = 0.0
    warnings: tuple[str, ...] = ()


class Vocabulary(BaseModel):
    """See the module doc."""

    model_config = _FROZEN

    relations: tuple[RelationWords, ...] = ()
    labels: tuple[LabelWords, ...] = ()
    lexicon: LexiconSource | None = None
    compiled: Compilation | None = None
    notes: tuple[str, ...] = ()  # lexicon entries that name nothing in the graph, …

    _rel_index: dict[str, RelationWords] | None = PrivateAttr(default=None)
    _label_index: dict[str, LabelWords] | None = PrivateAttr(default=None)
    _said: dict[tuple[str, bool], tuple[Phrase, ...]] = PrivateAttr(default_factory=dict)
    _others: dict[str, tuple[str, ...]] = PrivateAttr(default_factory=dict)
    _shared: frozenset[str] | None = PrivateAttr(default=None)
    _ends: dict[tuple[str, bool], tuple[str, ...]] = PrivateAttr(default_factory=dict)
    _topic: frozenset[str] | None = PrivateAttr(default=None)

    def model_copy(self, *, update: Mapping[str, Any] | None = None,
                   deep: bool = False) -> Vocabulary:
        """A copy with its own lookup caches (pydantic would share them with this one)."""
        new = super().model_copy(update=update, deep=deep)
        new._rel_index, new._label_index, new._said, new._others = None, None, {}, {}
        new._shared, new._ends, new._topic = None, {}, None
        return new

    def relation(self, name: str) -> RelationWords | None:
        if self._rel_index is None:
            self._rel_index = {r.relation: r for r in self.relations}
        return self._rel_index.get(name)

    def label(self, name: str) -> LabelWords | None:
        if self._label_index is None:
            self._label_index = {lab.label: lab for lab in self.labels}
        return self._label_index.get(name)

    def phrases(self, relation: str, inverse: bool = False, *,
                sources: Iterable[str] | None = None) -> tuple[Phrase, ...]:
        """How ``relation`` is said head → tail (``inverse``: tail → head), best source first
        (lexicon, llm, name); a relation the vocabulary does not hold gets phrases derived from
        its name. ``sources`` keeps only phrases from those sources."""
        if sources is None:
            got = self._said.get((relation, inverse))
            if got is None:  # memoised: scorers ask for the same relations over and over
                words = self.relation(relation) or relation_words(relation)
                got = unique_phrases(words.backward if inverse else words.forward)
                if len(self._said) < 100_000:
                    self._said[(relation, inverse)] = got
            return got
        words = self.relation(relation) or relation_words(relation)
        keep = set(sources)
        return unique_phrases(p for p in (words.backward if inverse else words.forward)
                              if p.source in keep)

    def other_texts(self, relation: str) -> tuple[str, ...]:
        """The texts of ``relation``'s phrases from other sources than its name (the owner's
        lexicon, an LLM compilation), head → tail then tail → head; memoised (the similarity
        service reads every relation's texts for every question). An LLM's phrase written for
        :data:`LLM_SHARED` relations or more (the graph's topic: "films") is left out: it would
        say every question's topic word."""
        got = self._others.get(relation)
        if got is None:
            shared = self._shared_llm_texts()
            got = tuple(p.text for inv in (False, True) for p in self.phrases(relation, inv)
                        if p.source != "name"
                        and (p.source != "llm" or p.text.casefold() not in shared))
            if len(self._others) < 100_000:
                self._others[relation] = got
        return got

    def end_nouns(self, relation: str, head: bool) -> tuple[str, ...]:
        """The nouns the owner's lexicon or an LLM compilation call a relation's heads
        (``head``) or tails by, read off their phrases as the compilation prompt defines them
        (forward: what the head is to the tail; backward: the tail to the head): an "N of"
        phrase names the end it is read from ("mentor of" backward: the tail), "has N" the
        other end, and a bare noun the dictionary knows ("birthplace" forward) the end it is
        said of. A graph without labels calls its nodes by these (nothing from names: the
        relation's own name is read by :func:`~byokg.language.relwords.end_nouns`).

        A noun (by its last word) that more of the relation's phrases, its name's among them,
        give the other end is not this end's: LLMs write some "N of" phrases the other way
        round ("head chef of" backwards for ``chefAt``, whose ``chef`` and "chef" name the
        heads). As many on both sides (``spouse``) keeps it on both."""
        key = (relation, head)
        got = self._ends.get(key)
        if got is None:
            said, votes = self._end_reads(relation)
            mine, other = votes[head], votes[not head]
            topic = self._topic_words()
            got = tuple(dict.fromkeys(
                n for n in said[head] if _noun_words(n) and not _on_topic(n, topic)
                and other.get(_last(n), 0) <= mine.get(_last(n), 0)))
            if len(self._ends) < 100_000:
                self._ends[key] = got
        return got

    def _end_reads(self, relation: str) -> tuple[dict[bool, list[str]],
                                                 dict[bool, dict[str, int]]]:
        """Per end (``True``: the heads), the nouns the said phrases call it (see
        :meth:`end_nouns`), and how many phrases, the name's too, call it by each last
        word."""
        said: dict[bool, list[str]] = {True: [], False: []}
        votes: dict[bool, dict[str, int]] = {True: {}, False: {}}
        shared = self._shared_llm_texts()
        for inverse in (False, True):
            said_of_head = not inverse  # forward phrases are said of the head, backward
            for p in self.phrases(relation, inverse):  # ones of the tail
                text = p.text.casefold().strip()
                if p.source == "llm" and text in shared:
                    continue
                if (n := of_noun(text)) is not None:
                    end = said_of_head
                elif (n := had_noun(text)) is not None:
                    end = not said_of_head
                elif _bare_noun(text):
                    n, end = text, not said_of_head
                else:
                    continue
                votes[end][_last(n)] = votes[end].get(_last(n), 0) + 1
                if p.source != "name":
                    said[end].append(n)
        return said, votes

    def _topic_words(self) -> frozenset[str]:
        """Words an LLM wrote in the phrases of half the graph's relations or more (and at
        least :data:`LLM_SHARED`): the graph's topic ("films of", "films by", "films from"
        on a film graph), which names no one end: "films of" written backwards for ``actor``
        meant the films, not the actors the prompt's reading would make them."""
        if self._topic is None:
            least = max(LLM_SHARED, (len(self.relations) + 1) // 2)
            self._topic = self._llm_across(lambda t: [w for w in t.split()
                                                      if w not in STOPWORDS], least)
        return self._topic

    def _llm_across(self, parts: Callable[[str], Iterable[str]], least: int) -> frozenset[str]:
        """The parts (of casefolded LLM phrase texts) found in the phrases of ``least``
        relations or more."""
        counts: dict[str, int] = {}
        for r in self.relations:
            for x in {x for p in (*r.forward, *r.backward) if p.source == "llm"
                      for x in parts(p.text.casefold())}:
                counts[x] = counts.get(x, 0) + 1
        return frozenset(x for x, n in counts.items() if n >= least)

    def _shared_llm_texts(self) -> frozenset[str]:
        """The LLM phrases written for :data:`LLM_SHARED` relations or more."""
        if self._shared is None:
            self._shared = self._llm_across(lambda t: (t,), LLM_SHARED)
        return self._shared

    def label_phrases(self, label: str) -> tuple[Phrase, ...]:
        """How nodes of ``label`` are called (a label not held: its name's words)."""
        words = self.label(label) or label_words(label)
        return unique_phrases(words.phrases)

    def name_properties(self, label: str) -> tuple[str, ...]:
        """The properties naming ``label``'s nodes: display parts first, then aliases."""
        words = self.label(label)
        return tuple(n.property for n in words.names) if words is not None else ()

    def texts(self) -> list[str]:
        """Every phrase text once (what a model of meaning embeds for this graph)."""
        out: dict[str, None] = {}
        for r in self.relations:
            out.update((p.text, None) for p in (*r.forward, *r.backward))
        for lab in self.labels:
            out.update((p.text, None) for p in lab.phrases)
        return list(out)

    def describe_lines(self, limit: int = 60) -> list[str]:
        """Readable lines for ``byokg profile``: the lexicon, the compilation, then each
        relation's and label's phrases (``[lexicon]`` / ``[llm]`` mark where one came from)."""
        lines = []
        if self.lexicon is not None:
            lines.append(f"lexicon: {self.lexicon.path}")
        if self.compiled is not None:
            c = self.compiled
            lines.append(f"compiled by {c.model}: {c.relations} relations, {c.labels} labels in "
                         f"{c.calls} call(s), {c.seconds:.1f}s")
            lines += [f"  warning: {w}" for w in c.warnings[:10]]
        for r in self.relations[:limit]:
            lines.append(f"[:{r.relation}]  {_phrase_list(r.forward)}  <-  "
                         f"{_phrase_list(r.backward)}")
        if len(self.relations) > limit:
            lines.append(f"… {len(self.relations) - limit} more relations (--json shows all)")
        for lab in self.labels[:limit]:
            lines.append(f"(:{lab.label})  {_phrase_list(lab.phrases)}")
        lines += [f"note: {n}" for n in self.notes]
        return lines


def _last(noun: str) -> str:
    """A noun phrase's head word, singular ("head chefs" -> "chef")."""
    words = noun.split()
    return singular(words[-1]) if words else ""


def _bare_noun(text: str) -> bool:
    """A phrase that is a noun the dictionary knows, of one or two words ("birthplace",
    "record label"), not a verb phrase ("born in", "plays")."""
    return len(text.split()) <= 2 and _noun_words(text) and gloss(text) is not None


def _on_topic(noun: str, topic: frozenset[str]) -> bool:
    """A noun that is the graph's topic or built on it ("filmmaker" on a graph whose topic is
    "films"): a type word asking for the topic ("which *films*") would match it by its
    letters."""
    return any(lexical_phrase_score(t, w) > 0 for t in topic for w in noun.split())


def _noun_words(text: str) -> bool:
    """One to three words, none a function word ("has bees" of "has bees of" is none)."""
    ws = text.split()
    return 0 < len(ws) <= 3 and not any(w in STOPWORDS for w in ws)


def _phrase_list(phrases: Sequence[Phrase]) -> str:
    if not phrases:
        return "-"
    return ", ".join(p.text + ("" if p.source == "name" else f" [{p.source}]")
                     for p in unique_phrases(phrases))


# --------------------------------------------------------------------------- derived words


def _clean(text: str) -> str | None:
    """A phrase as stored: one line, spaces collapsed, at most :data:`MAX_PHRASE_CHARS`."""
    s = " ".join(str(text).split())
    return s[:MAX_PHRASE_CHARS] if s else None


def merge_phrases(*groups: Iterable[Phrase]) -> tuple[Phrase, ...]:
    """Phrases of every group, best source first, each text once per source (a text two
    sources give is kept under both, so removing one source leaves the other's)."""
    seen: dict[tuple[str, str], Phrase] = {}
    for p in sorted((p for g in groups for p in g), key=lambda p: _ORDER[p.source]):
        seen.setdefault((p.text.lower(), p.source), p)
    return tuple(seen.values())


def unique_phrases(phrases: Iterable[Phrase]) -> tuple[Phrase, ...]:
    """Each text once (case-insensitive), the first (best) source's."""
    seen: dict[str, Phrase] = {}
    for p in phrases:
        seen.setdefault(p.text.lower(), p)
    return tuple(seen.values())


def relation_words(relation: str, domain: Sequence[str] = (), range_: Sequence[str] = (),
                   ) -> RelationWords:
    """Phrases derived from a relation's name and its (most common) domain and range labels,
    both ways (:func:`byokg.language.relwords.verbalize`)."""
    said = verbalize(relation, domain[0] if domain else None, range_[0] if range_ else None)
    return RelationWords(relation=relation, forward=_named(said.forward),
                         backward=_named(said.backward))


def _named(texts: Iterable[str]) -> tuple[Phrase, ...]:
    out = [c for t in texts if (c := _clean(t))]
    return tuple(Phrase(text=t, source="name") for t in dict.fromkeys(out))[:MAX_PHRASES]


_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def label_words(label: str) -> LabelWords:
    """Phrases derived from a label's name: ``TvShow`` / ``TV_SHOW`` -> "tv show"."""
    words = " ".join(w.lower() for w in _CAMEL.findall(label))
    return LabelWords(label=label, phrases=(Phrase(text=words),) if words else ())


def derive_vocabulary(relations: Iterable[tuple[str, Sequence[str], Sequence[str]]],
                      labels: Iterable[tuple[str, Sequence[NameProperty]]]) -> Vocabulary:
    """The vocabulary derived from the graph alone: ``relations`` as (name, domain labels,
    range labels), ``labels`` as (name, its name properties)."""
    rels = tuple(relation_words(n, d, r) for n, d, r in relations)
    labs = tuple(label_words(n).model_copy(update={"names": tuple(names)})
                 for n, names in labels)
    return Vocabulary(relations=rels, labels=labs)


# --------------------------------------------------------------------------- the user's lexicon


class LexiconEntry(BaseModel):
    """A lexicon file's phrases for one relation (``forward``/``backward``) or label."""

    model_config = _FROZEN

    forward: tuple[str, ...] = ()
    backward: tuple[str, ...] = ()
    line: int | None = None  # where the entry starts in the file, when known


class Lexicon(BaseModel):
    """A lexicon file read and checked (see :func:`read_lexicon` for the format)."""

    model_config = _FROZEN

    path: str
    digest: str
    relations: dict[str, LexiconEntry] = {}
    labels: dict[str, LexiconEntry] = {}
    notes: tuple[str, ...] = ()  # what was cut (long phrases, long lists)

    @property
    def source(self) -> LexiconSource:
        return LexiconSource(path=self.path, digest=self.digest)


LEXICON_EXAMPLE = """\
# words.toml: how the people who ask questions say this graph's relations and labels
[relations]
BORN_IN = ["born in", "birthplace"]                  # head -> tail ("X born in Y")
[relations.spouse]
forward = ["married to", "husband", "wife"]
backward = ["married to"]                            # tail -> head ("Y married to X")
[labels]
Scholar = ["scientist", "laureate", "researcher"]
"""


def file_digest(path: str | Path) -> str:
    """A short digest of a file's bytes (what invalidates a cached vocabulary)."""
    try:
        data = Path(path).expanduser().read_bytes()
    except OSError as exc:
        raise ConfigError(f"lexicon file {path}: cannot read it ({exc.strerror}); "
                          "fix the path given as lexicon= or RunConfig.lexicon") from None
    return hashlib.blake2b(data, digest_size=12).hexdigest()


def read_lexicon(path: str | Path) -> Lexicon:
    """Read a lexicon file (``.toml`` or ``.json``): ``relations`` maps a relation name to
    phrases — a list (head → tail), or a table with ``forward`` and/or ``backward`` lists —
    and ``labels`` maps a label to a list of phrases. A malformed file or entry is a
    :class:`ConfigError` naming the file, the entry and what to write (see
    :data:`LEXICON_EXAMPLE`)."""
    p = Path(path).expanduser()
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise ConfigError(f"lexicon file {p}: cannot read it ({exc.strerror}); fix the path "
                          "given as lexicon= or RunConfig.lexicon") from None
    kind = "JSON" if p.suffix.lower() == ".json" else "TOML"
    if p.suffix.lower() not in (".json", ".toml"):
        raise ConfigError(f"lexicon file {p}: name a .toml or .json file")
    if len(raw) > MAX_LEXICON_BYTES:
        raise ConfigError(f"lexicon file {p}: {len(raw):,} bytes, more than a lexicon needs "
                          f"(limit {MAX_LEXICON_BYTES:,}); keep relation and label phrases only")
    try:
        text = raw.decode("utf-8")
        data = json.loads(text) if kind == "JSON" else tomllib.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ConfigError(f"lexicon file {p}: not valid {kind}: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"lexicon file {p}: expected a table with 'relations' and 'labels', "
                          f"got {type(data).__name__}")
    unknown = sorted(set(data) - {"relations", "labels"})
    if unknown:
        raise ConfigError(f"lexicon file {p}: unknown section {unknown[0]!r} (sections: "
                          "relations, labels)")
    lines = text.splitlines()
    notes: list[str] = []
    rels = {str(k): _entry(p, "relations", str(k), v, lines, notes)
            for k, v in _section(p, data, "relations").items()}
    labs = {str(k): _entry(p, "labels", str(k), v, lines, notes)
            for k, v in _section(p, data, "labels").items()}
    return Lexicon(path=str(p), digest=hashlib.blake2b(raw, digest_size=12).hexdigest(),
                   relations=rels, labels=labs, notes=tuple(notes))


def _section(p: Path, data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    sec = data.get(name, {})
    if not isinstance(sec, dict):
        raise ConfigError(f"lexicon file {p}: '{name}' must be a table of name -> phrases, "
                          f"got {type(sec).__name__}")
    return sec


def _line_of(lines: Sequence[str], name: str) -> int | None:
    pat = re.compile(r'(^|[\s."\[{,])' + re.escape(name) + r'("?\s*[=:\]]|"?\s*\.)')
    return next((i for i, line in enumerate(lines, 1) if pat.search(line)), None)


def _phrases(p: Path, where: str, value: Any, notes: list[str]) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
        raise ConfigError(f"lexicon file {p}: {where} must be a list of phrases (strings), got "
                          f"{json.dumps(value, default=str)[:80]}")
    out = list(dict.fromkeys(c for x in items if (c := _clean(x))))
    long = [x for x in items if len(" ".join(x.split())) > MAX_PHRASE_CHARS]
    if long:
        notes.append(f"lexicon {p}: {where}: {len(long)} phrase(s) cut to {MAX_PHRASE_CHARS} "
                     "characters")
    if len(out) > MAX_PHRASES:
        notes.append(f"lexicon {p}: {where}: {len(out)} phrases, kept the first {MAX_PHRASES}")
    return tuple(out[:MAX_PHRASES])


def _entry(p: Path, section: str, name: str, value: Any, lines: Sequence[str],
           notes: list[str]) -> LexiconEntry:
    line = _line_of(lines, name)
    at = f"{section}.{name}" + (f" (line {line})" if line else "")
    if isinstance(value, dict):
        bad = sorted(set(value) - {"forward", "backward"})
        if bad or section == "labels":
            what = ("a list of phrases" if section == "labels"
                    else "forward and/or backward lists")
            raise ConfigError(f"lexicon file {p}: {at}: unknown key "
                              f"{(bad or sorted(value))[0]!r}; write {what}")
        return LexiconEntry(
            forward=_phrases(p, f"{at}.forward", value.get("forward", []), notes),
            backward=_phrases(p, f"{at}.backward", value.get("backward", []), notes), line=line)
    return LexiconEntry(forward=_phrases(p, at, value, notes), line=line)


def _unknown(kind: str, name: str, known: Sequence[str], lex: Lexicon) -> str:
    entry = lex.relations.get(name) if kind == "relation" else lex.labels.get(name)
    at = f" (line {entry.line})" if entry is not None and entry.line else ""
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    return f"lexicon {lex.path}: {kind} {name!r}{at} is not in this graph, ignored{hint}"


def apply_lexicon(vocab: Vocabulary, lexicon: Lexicon | None) -> Vocabulary:
    """``vocab`` with ``lexicon``'s phrases first (None: without any lexicon phrases); entries
    naming no relation or label of the graph are logged and kept in ``notes``."""
    rels, labs, notes = [], [], []
    known_r = {r.relation for r in vocab.relations}
    known_l = {lab.label for lab in vocab.labels}
    for r in vocab.relations:
        e = lexicon.relations.get(r.relation) if lexicon is not None else None
        fw = _drop(r.forward, "lexicon") + tuple(Phrase(text=t, source="lexicon")
                                                  for t in (e.forward if e else ()))
        bw = _drop(r.backward, "lexicon") + tuple(Phrase(text=t, source="lexicon")
                                                   for t in (e.backward if e else ()))
        rels.append(r.model_copy(update={"forward": merge_phrases(fw),
                                         "backward": merge_phrases(bw)}))
    for lab in vocab.labels:
        e = lexicon.labels.get(lab.label) if lexicon is not None else None
        ph = _drop(lab.phrases, "lexicon") + tuple(Phrase(text=t, source="lexicon")
                                                   for t in (e.forward if e else ()))
        labs.append(lab.model_copy(update={"phrases": merge_phrases(ph)}))
    if lexicon is not None:
        notes += list(lexicon.notes)
        notes += [_unknown("relation", n, sorted(known_r), lexicon)
                  for n in lexicon.relations if n not in known_r]
        notes += [_unknown("label", n, sorted(known_l), lexicon)
                  for n in lexicon.labels if n not in known_l]
        for n in notes:
            log.warning("%s", n)
    kept = [n for n in vocab.notes if not n.startswith("lexicon ")]
    return vocab.model_copy(update={
        "relations": tuple(rels), "labels": tuple(labs),
        "lexicon": lexicon.source if lexicon is not None else None,
        "notes": tuple(kept + notes)})


def _drop(phrases: Sequence[Phrase], source: str) -> tuple[Phrase, ...]:
    return tuple(p for p in phrases if p.source != source)


def with_llm_phrases(vocab: Vocabulary, relations: Mapping[str, tuple[Sequence[str],
                                                                       Sequence[str]]],
                     labels: Mapping[str, Sequence[str]], compiled: Compilation | None
                     ) -> Vocabulary:
    """``vocab`` with an LLM's phrases (relation -> (forward, backward), label -> phrases)
    in place of any earlier LLM phrases, and the compilation's record."""
    rels = []
    for r in vocab.relations:
        fw, bw = relations.get(r.relation, ((), ()))
        rels.append(r.model_copy(update={
            "forward": merge_phrases(_drop(r.forward, "llm"), _llm(fw)),
            "backward": merge_phrases(_drop(r.backward, "llm"), _llm(bw))}))
    labs = [lab.model_copy(update={"phrases": merge_phrases(_drop(lab.phrases, "llm"),
                                                            _llm(labels.get(lab.label, ())))})
            for lab in vocab.labels]
    return vocab.model_copy(update={"relations": tuple(rels), "labels": tuple(labs),
                                    "compiled": compiled})


def _llm(texts: Sequence[str]) -> tuple[Phrase, ...]:
    out = [c for t in texts if (c := _clean(t))]
    return tuple(Phrase(text=t, source="llm") for t in dict.fromkeys(out))[:MAX_PHRASES]


def llm_phrases(vocab: Vocabulary) -> tuple[dict[str, tuple[tuple[str, ...], tuple[str, ...]]],
                                             dict[str, tuple[str, ...]]]:
    """The LLM's phrases held by ``vocab`` (to carry them into a rebuilt vocabulary)."""
    rels = {r.relation: (tuple(p.text for p in r.forward if p.source == "llm"),
                         tuple(p.text for p in r.backward if p.source == "llm"))
            for r in vocab.relations}
    labs = {lab.label: tuple(p.text for p in lab.phrases if p.source == "llm")
            for lab in vocab.labels}
    return ({k: v for k, v in rels.items() if v[0] or v[1]},
            {k: v for k, v in labs.items() if v})


# --------------------------------------------------------------------------- LLM compilation

COMPILE_BATCH = 50  # relations and labels per LLM call
COMPILE_TEMPLATE = "graph_words.v2.txt"
COMPILE_MAX_TOKENS = 8000
COMPILE_LINE_CHARS = 1000  # one reply line: a relation's phrases both ways (up to 20)
_ENTRY = re.compile(r"^\s*(relation|label)\s+(.+?)\s*$", re.I)


class CompileItem(BaseModel):
    """One relation or label shown to the LLM: its name and what it connects or holds."""

    model_config = _FROZEN

    kind: Literal["relation", "label"]
    name: str
    detail: str = ""  # "(:Scholar) -> (:City), e.g. Max Planck -> Kiel"


def compile_prompt(batch: Sequence[CompileItem]) -> str:
    """The compilation prompt for one batch (``byokg/prompts/graph_words.v2.txt``)."""
    from importlib import resources

    template = resources.files("byokg.prompts").joinpath(COMPILE_TEMPLATE).read_text(
        encoding="utf-8")
    rels = [f"- {it.name}  {it.detail}".rstrip() for it in batch if it.kind == "relation"]
    labs = [f"- {it.name}  {it.detail}".rstrip() for it in batch if it.kind == "label"]
    return (template.replace("{{relations}}", "\n".join(rels) or "(none)")
            .replace("{{labels}}", "\n".join(labs) or "(none)"))


def parse_compiled(reply: str, batch: Sequence[CompileItem], warnings: list[str]
                   ) -> tuple[dict[str, tuple[tuple[str, ...], tuple[str, ...]]],
                              dict[str, tuple[str, ...]]]:
    """Phrases per relation (forward, backward) and per label from one reply (through
    :mod:`byokg.models.replies`); lines naming nothing of the batch, or malformed, are
    warnings."""
    from byokg.models import replies

    text = replies.clean_text(reply, warnings)
    bodies, found = replies.sections(text, {"phrases": "phrases"}, warnings)
    body = "\n".join(bodies.get("phrases", [])) if found else text
    if not found:
        warnings.append("no <phrases> section in the reply; read every line")
    want = {(it.kind, it.name): it for it in batch}
    folded = {(k, n.casefold()): n for k, n in want}
    rels: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    labs: dict[str, tuple[str, ...]] = {}
    for line in replies.items(body, "phrases", warnings, max_items=2 * len(batch) + 10,
                              max_chars=COMPILE_LINE_CHARS):
        head, *cols = [c.strip() for c in line.split("|")]
        m = _ENTRY.match(head)
        if m is None or not cols:
            warnings.append(f"unreadable line {line[:60]!r}")
            continue
        kind = m.group(1).lower()
        raw = m.group(2).strip().strip("`'\"()[]:").strip()
        name = folded.get((kind, raw.casefold()))
        if name is None:
            warnings.append(f"{kind} {raw[:40]!r} is not one asked about; ignored")
            continue
        split = [tuple(dict.fromkeys(c for x in col.split(";") if (c := _clean(x))))
                 for col in cols]
        if kind == "relation":
            rels[name] = (split[0], split[1] if len(split) > 1 else ())
        else:
            labs[name] = split[0]
    missing = [n for k, n in want if (k == "relation" and n not in rels)
               or (k == "label" and n not in labs)]
    if missing:
        warnings.append(f"no phrases for {len(missing)} of {len(batch)}: "
                        + ", ".join(missing[:5]) + (" …" if len(missing) > 5 else ""))
    return rels, labs


def compile_words(vocab: Vocabulary, items: Sequence[CompileItem], llm: Any, *,
                  batch_size: int = COMPILE_BATCH) -> Vocabulary:
    """``vocab`` with phrases the LLM wrote for ``items``, one call per ``batch_size``
    relations and labels; the replies are parsed with :func:`parse_compiled`. A failed call
    is a warning in the compilation's record (its entries keep their other phrases)."""
    import time

    from byokg.errors import ByokgError

    t0 = time.perf_counter()
    rels: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    labs: dict[str, tuple[str, ...]] = {}
    warnings: list[str] = []
    calls = 0
    for i in range(0, len(items), max(1, batch_size)):
        batch = items[i:i + batch_size]
        calls += 1
        try:
            resp = llm.complete(compile_prompt(batch), max_tokens=COMPILE_MAX_TOKENS,
                                temperature=0.0)
        except ByokgError as exc:
            warnings.append(f"call {calls} failed ({type(exc).__name__}: {exc}); its "
                            f"{len(batch)} entries were not compiled")
            continue
        got_r, got_l = parse_compiled(resp.text, batch, warnings)
        rels.update(got_r)
        labs.update(got_l)
    for w in warnings:
        log.warning("compiling the graph's words: %s", w)
    record = Compilation(model=str(getattr(llm, "name", "llm")), calls=calls,
                         relations=len(rels), labels=len(labs),
                         seconds=round(time.perf_counter() - t0, 3),
                         warnings=tuple(warnings[:50]))
    return with_llm_phrases(vocab, rels, labs, record)


# --------------------------------------------------------------------------- the lexicon's currency


def lexicon_current(vocab: Vocabulary, path: str | None, *, check_digest: bool = True) -> bool:
    """Whether ``vocab`` was built with the lexicon at ``path`` as the file is now (None: with
    no lexicon)."""
    have = vocab.lexicon
    if path is None or have is None:
        return path is None and have is None
    if have.path != path:
        return False
    return not check_digest or have.digest == file_digest(path)
