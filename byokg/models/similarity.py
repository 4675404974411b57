"""How well the question's words say the graph's words: the one similarity service.

Every stage that compares the question with the graph's names asks one :class:`Similarity` per
question (the engine builds it and hands it to every request): relation-to-question relevance
(:meth:`Similarity.relation_scores`: rank and prune relations, properties and context) and
word-to-name similarity (:meth:`Similarity.phrase_similarity`: the offline reasoner aligning the
question's words with a chain's hops). Both blend the lexical match of
:mod:`byokg.language.analysis` (stems, 3-grams, agent nouns, compounds) with a model of meaning
when one is available, and memoise what they computed for the question, so the proposer, the
tools and the answerer never pay twice.

Text vectors are cached per embedder object for the life of the embedder (a weak-keyed map: an
embedder that is gone takes its vectors with it).
"""

from __future__ import annotations

import functools
import itertools
import threading
import weakref
from collections.abc import Callable
from collections.abc import Collection
from collections.abc import Sequence
from typing import TYPE_CHECKING
from typing import Any

from byokg.language import lexicon as lx
from byokg.language.analysis import QuestionAnalysis
from byokg.language.analysis import humanize_relation
from byokg.language.analysis import lexical_phrase_score
from byokg.language.analysis import lexical_relation_scores
from byokg.language.lexicon import MENTION_PLACEHOLDER
from byokg.language.relwords import base_verb
from byokg.language.relwords import converse_noun
from byokg.language.relwords import end_nouns
from byokg.language.relwords import hypernym
from byokg.language.relwords import of_noun
from byokg.language.relwords import performer_role
from byokg.language.relwords import singular
from byokg.language.relwords import verbalize
from byokg.language.text import STOPWORDS
from byokg.language.text import stem
from byokg.language.thesaurus import gloss

if TYPE_CHECKING:
    from pathlib import Path

    import numpy as np

    from byokg.models.cache import VectorFile

VEC_CACHE_MAX = 200_000  # vectors kept per embedder before its cache is cleared
COSINE_FLOOR = 0.3  # an embedder without a calibration: a cosine counts from here ...
COSINE_SPAN = 0.38  # ... and is a full match at FLOOR + SPAN (MiniLM's landmarks)
TOPICAL_QUANTILE = 0.75  # a word's own floor: this quantile of its cosines to the graph's relations
RELATION_TEXTS = 2  # phrases per direction a relation is read as (besides its own words)
READING_PHRASES = 2  # phrases per hop a chain is read with as a sentence (every combination)
VOCABULARY_TEXTS = 8  # phrases per relation read from the graph's vocabulary (lexicon, LLM)
FLOOR_VOCABULARY = 4  # relations from which a word's topical floor is measured
PRIOR_NAMES = 8  # a word's cosines to a graph's names are shrunk towards unrelated pairs
# as if this many unrelated names were among them (relative similarity on small graphs)

_VEC_LOCK = threading.Lock()
_VECTORS: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


def _vector_cache(embedder: Any) -> dict[str, Any]:
    with _VEC_LOCK:
        try:
            return _VECTORS.setdefault(embedder, {})
        except TypeError:  # an embedder that cannot be weakly referenced keeps no cache
            return {}


def encode_cached(embedder: Any, texts: Sequence[str], *, batch_size: int = 128,
                  file: VectorFile | None = None,
                  transient: Collection[str] = ()) -> np.ndarray:
    """``embedder.encode(texts)`` with a cache per embedder object; only unseen texts are
    encoded. With ``file`` (the graph's vectors on disk for this embedder) texts it holds are
    read from it and new ones are added to it, except those in ``transient`` (texts of one
    question: encoded in the same batch, kept in this process's cache alone)."""
    import numpy as np

    cache = _vector_cache(embedder)
    with _VEC_LOCK:
        missing = list(dict.fromkeys(t for t in texts if t not in cache))
    if missing and file is not None:
        got = file.get(missing)
        if got:
            with _VEC_LOCK:
                cache.update(got)
            missing = [t for t in missing if t not in got]
    if missing:
        vecs = np.asarray(embedder.encode(missing, batch_size=batch_size), dtype=np.float32)
        with _VEC_LOCK:
            if len(cache) + len(missing) > VEC_CACHE_MAX:
                cache.clear()
            cache.update(zip(missing, vecs, strict=True))
            found = {t: cache[t] for t in texts if t in cache}
        for t, v in zip(missing, vecs, strict=True):  # cleared meanwhile: still answer
            found.setdefault(t, v)
        if file is not None:
            file.add({t: v for t, v in zip(missing, vecs, strict=True) if t not in transient})
    else:
        with _VEC_LOCK:
            found = {t: cache[t] for t in texts}
    dim = int(getattr(embedder, "dim", 0) or (len(next(iter(found.values()))) if found else 0))
    if not texts:
        return np.zeros((0, dim), np.float32)
    return np.stack([found[t] for t in texts]).astype(np.float32, copy=False)


def semantic_model(services: Any) -> Any:
    """The model for meaning-level similarity: the run's configured embedder, else the best
    one installed (MiniLM when its weights are installed, else the static model shipped in
    the core), or None when the run asks for the character n-gram ``lexical`` embedder
    (spelling, not meaning) or has no services."""
    if services is None:
        return None
    name = services.config.embedder
    if name is not None and str(name).startswith("lexical"):
        return None
    return services.embedder


class Scale:
    """Maps an embedder's cosines to [0, 1] from its calibration: 0 up to a floor (between its
    typical and its 90th-percentile unrelated pair), 1 at its typical synonym pair."""

    def __init__(self, embedder: Any) -> None:
        cal = getattr(embedder, "calibration", None)
        if cal is None:
            self.floor, self.top = COSINE_FLOOR, COSINE_FLOOR + COSINE_SPAN
            self.unrelated, self.unrelated_p90 = COSINE_FLOOR - 0.1, COSINE_FLOOR
        else:
            self.floor = (cal.unrelated + cal.unrelated_p90) / 2.0
            self.top = cal.related
            self.unrelated, self.unrelated_p90 = cal.unrelated, cal.unrelated_p90

    def __call__(self, cos: float, floor: float | None = None) -> float:
        lo = self.floor if floor is None else max(self.floor, floor)
        span = max(self.top - lo, 1e-3)
        return max(0.0, min(1.0, (cos - lo) / span))


@functools.lru_cache(maxsize=65536)
def relation_texts(name: str) -> tuple[str, ...]:
    """What a relation (or label) name is read as by a model of meaning: its words, and its
    first phrases each way (:func:`byokg.language.relwords.verbalize`) that bring a word of
    their own ("born in" for ``place_of_birth``, "writer of" for ``wrote``; not "has book"
    for ``Book``)."""
    p = verbalize(name)
    own = set(p.words) | STOPWORDS
    extra = [x for x in (*p.forward[:RELATION_TEXTS], *p.backward[:RELATION_TEXTS])
             if set(x.split()) - own]
    # the nouns naming either end ("parent of" for ``children``: its converse)
    nouns = [f"{n} of" for inv in (False, True) for n in end_nouns(name, inv)
             if set(n.split()) - own]
    # a performing role's verbs ("appears in", "features" for ``actor``)
    roles = [x for x in (*p.forward, *p.backward)
             if x in lx.PERFORMER_PHRASES or x in lx.FEATURING_PHRASES] \
        if performer_role(name) else []
    return tuple(dict.fromkeys([p.text(), *([p.singular] if p.singular else []), *extra,
                                *nouns, *roles]))


@functools.lru_cache(maxsize=65536)
def relation_gloss(name: str) -> str | None:
    """What a noun-named relation means by the dictionary (:func:`byokg.language.thesaurus.gloss`
    of its words as written: ``alma_mater`` -> "your alma mater is a school you graduated from";
    ``spouse`` -> "a person's partner in marriage"), or None: not for a name that ends in a
    preposition (``works_at``, ``ADVISED_BY``: a verb's frame, not a noun). Only a contextual
    model reads it: the static model pools a definition's words into noise (on the fit split the
    static model lost 3 questions with it, MiniLM gained 8 and lost none)."""
    p = verbalize(name)
    if not p.words or p.words[-1] in lx.PREPOSITIONS:
        return None
    return gloss(" ".join(p.words))


@functools.lru_cache(maxsize=65536)
def chain_readings(hops: tuple[tuple[str, bool], ...]) -> tuple[str, ...]:
    """A relation chain read as English from its question entity outwards, the entity written
    as :data:`~byokg.language.lexicon.MENTION_PLACEHOLDER`: each hop by one of its first
    :data:`READING_PHRASES` phrases along its direction
    (:func:`byokg.language.relwords.verbalize`), every combination ("X born in located in",
    "X place of birth located in" for ``place_of_birth`` then ``located_in``). What a
    contextual model compares with the question (:meth:`Similarity.reading_scores`)."""
    options = []
    for rel, inv in hops:
        along = verbalize(rel).along(inv)[:READING_PHRASES]
        options.append(along or (humanize_relation(rel),))
    return tuple(" ".join((MENTION_PLACEHOLDER, *c)) for c in itertools.product(*options))


class Similarity:
    """One question's similarity work, memoised (thread-safe: tools of a round share it).

    ``services`` gives the models: the configured embedder blends into
    :meth:`relation_scores`; :func:`semantic_model` (the configured embedder or MiniLM) into
    :meth:`phrase_similarity`. Without services both are lexical only."""

    def __init__(self, analysis: QuestionAnalysis, services: Any = None, *,
                 vector_dir: Path | None = None) -> None:
        self.analysis = analysis
        self.services = services
        self.vector_dir = vector_dir  # the graph's cache folder: vectors kept on disk there
        self.vocabulary: Any = None  # the graph's vocabulary (:meth:`use_vocabulary`)
        self._lock = threading.Lock()
        self._rel: dict[str, float] = {}
        self._sim: dict[tuple[str, str, Any], float] = {}  # (word, name, (model?, vocabulary))
        self._floor: dict[tuple[str, int], float] = {}  # (word, vocabulary) -> floor
        self._model: Any = None
        self._model_known = False
        self._scale: Scale | None = None
        self._question_vec: dict[tuple[Any, ...], Any] = {}
        self._hop_vec: dict[str, Any] = {}  # relation -> its texts' mean vector, normalised
        self._unit: dict[tuple[str, str, int], float] = {}
        self._stats: dict[tuple[str, int], tuple[float, float]] = {}
        self._sides: dict[tuple[str, str], tuple[float, float]] = {}
        # (relation, own texts only) -> the texts it is read as
        self._texts: dict[tuple[str, bool], tuple[str, ...]] = {}
        self._gathers: dict[int, tuple[list[str], Any]] = {}  # names -> texts, index
        self._cosines: dict[tuple[tuple[str, ...], int], Any] = {}  # (words, names) -> cosines

    @property
    def model(self) -> Any:
        """The model of meaning used for word similarity (None: lexical only)."""
        if not self._model_known:
            self._model = semantic_model(self.services)
            self._scale = Scale(self._model) if self._model is not None else None
            self._model_known = True
        return self._model

    @property
    def contextual(self) -> bool:
        """Whether the model of meaning reads a text in context (a transformer such as MiniLM),
        not as its words' vectors pooled (the static model, the lexical one). An embedder says
        so with a ``contextual`` attribute; one without it is taken to be a transformer."""
        return self.model is not None and bool(getattr(self.model, "contextual", True))

    @property
    def scale(self) -> Scale:
        """The model's cosine scale (:class:`Scale`)."""
        if self.model is None or self._scale is None:
            return Scale(None)
        return self._scale

    # ------------------------------------------------------------------ relations
    def relation_scores(self, relations: Sequence[str]) -> dict[str, float]:
        """Relevance of each relation name to the question in [0, 1]: lexical, blended half
        and half with the configured embedder's cosine when the run has one."""
        rels = list(dict.fromkeys(relations))
        with self._lock:
            todo = [r for r in rels if r not in self._rel]
        if todo:
            scores = lexical_relation_scores(self.analysis.terms, todo)
            emb = self._configured_embedder()
            if emb is not None:
                cos = self._question_cosines(emb, todo)
                scores = {r: 0.5 * scores[r] + 0.5 * max(0.0, cos[r]) for r in todo}
            with self._lock:
                self._rel.update(scores)
        with self._lock:
            return {r: self._rel[r] for r in rels}

    def relation_score(self, relation: str) -> float:
        return self.relation_scores([relation])[relation]

    def _configured_embedder(self) -> Any:
        if self.services is None or not self.services.config.embedder:
            return None
        return self.services.embedder

    def _question_cosines(self, emb: Any, relations: list[str]) -> dict[str, float]:
        vecs = self.encode(emb, [humanize_relation(r) for r in relations])
        qv = encode_cached(emb, [self.analysis.question])[0]
        return {r: float(c) for r, c in zip(relations, (vecs @ qv).tolist(), strict=True)}

    # ------------------------------------------------------------------ words
    def phrase_similarity(self, words_: Sequence[str], names: Sequence[str], *,
                          semantic: bool = True, vocabulary: Sequence[str] = (),
                          own_texts: bool = False) -> dict[tuple[str, str], float]:
        """How well each question word says each relation or property name, in [0, 1]: the
        best of the lexical match (:func:`~byokg.language.analysis.lexical_phrase_score`) and
        the calibrated cosine of the model of meaning when ``semantic`` and there is one.

        ``vocabulary`` (the graph's relation names) calibrates the cosine per word: a word
        about as close to most of the graph's relations ("movies" in a film graph) is topical,
        not a relation word, so its cosines count only above its own typical level. The floors
        and the scores are memoised per vocabulary. ``own_texts``: each name is read by its own
        words only, not through the phrases the graph's vocabulary holds for a relation of that
        name (a noun naming a hop's ends, ``maintainer``, is not the relation's phrases both
        ways: "projects maintained" says what its heads are)."""
        emb = self.model if semantic else None
        vocab = tuple(dict.fromkeys(vocabulary))
        flag = (emb is not None, hash(vocab) if emb is not None else 0, own_texts)
        if emb is not None and not names:
            self._floors(emb, list(dict.fromkeys(words_)), vocab)
            return {}
        pairs = [(w, n) for w in dict.fromkeys(words_) for n in dict.fromkeys(names)]

        def score(todo: list[tuple[str, str]]) -> dict[tuple[str, str], float]:
            got = {p: lexical_phrase_score(p[0], p[1]) for p in todo}
            if emb is not None:
                cos = self._cosine_of_pairs(emb, todo, own_texts)
                floors = self._floors(emb, list(dict.fromkeys(w for w, _ in todo)), vocab)
                scale = self.scale
                for p in todo:
                    got[p] = max(got[p], scale(cos[p], floors.get(p[0])))
            return got

        return self._memoised(self._sim, flag, pairs, score)

    def _memoised(self, memo: dict[tuple[str, str, Any], float], tag: Any,
                  pairs: list[tuple[str, str]],
                  score: Callable[[list[tuple[str, str]]], dict[tuple[str, str], float]]
                  ) -> dict[tuple[str, str], float]:
        """``pairs`` looked up in ``memo`` under ``tag``; those not there yet scored by
        ``score`` (outside the lock) and kept."""
        with self._lock:
            todo = [p for p in pairs if (p[0], p[1], tag) not in memo]
        if todo:
            got = score(todo)
            with self._lock:
                memo.update({(a, b, tag): v for (a, b), v in got.items()})
        with self._lock:
            return {p: memo[(p[0], p[1], tag)] for p in pairs}

    def _cosine_of_pairs(self, emb: Any, pairs: list[tuple[str, str]], own_texts: bool = False
                         ) -> dict[tuple[str, str], float]:
        """The model's cosine of each (word, name) pair, from one matrix of the distinct
        words against the distinct names."""
        ws = list(dict.fromkeys(w for w, _ in pairs))
        ns = list(dict.fromkeys(n for _, n in pairs))
        cos = self._name_cosines(emb, ws, ns, own_texts)
        wi = {w: i for i, w in enumerate(ws)}
        ni = {n: i for i, n in enumerate(ns)}
        return {p: float(cos[wi[p[0]], ni[p[1]]]) for p in pairs}

    def said_words(self, threshold: float, names: Sequence[str] | None = None) -> set[str]:
        """Question words that some name compared so far says with at least ``threshold``
        (only names in ``names`` when given)."""
        allowed = None if names is None else set(names)
        with self._lock:
            items = list(self._sim.items())
        return {w for (w, n, _flag), v in items
                if v >= threshold and (allowed is None or n in allowed)}

    def warm(self, texts: Sequence[str], questions: Sequence[str] = ()) -> None:
        """Embed ``texts`` and ``questions`` in one batch now (the model is slowest when called
        often with a few texts; on a busy machine each call costs the BLAS threads' start).
        ``texts`` are kept in the graph's vector file, ``questions`` (texts of this question
        only) in this process's cache alone."""
        emb = self.model
        if emb is None or not (texts or questions):
            return
        file = None
        if self.vector_dir is not None:
            from byokg.models.cache import vector_file

            file = vector_file(self.vector_dir, emb)
        encode_cached(emb, list(dict.fromkeys([*questions, *texts])), file=file,
                      transient=frozenset(questions) - frozenset(texts))

    def encode(self, emb: Any, texts: Sequence[str]) -> np.ndarray:
        """``texts`` embedded by ``emb`` through the caches: this process's, and the graph's
        file of vectors when the question has a cache folder."""
        file = None
        if self.vector_dir is not None:
            from byokg.models.cache import vector_file

            file = vector_file(self.vector_dir, emb)
        return encode_cached(emb, texts, file=file)

    def _pair_cosines(self, emb: Any, left: list[str], right: list[str]) -> Any:
        return self.encode(emb, left) @ self.encode(emb, right).T

    def use_vocabulary(self, vocabulary: Any) -> None:
        """Read relations through the graph's vocabulary too (``profile.vocabulary``: its
        ``phrases(relation, inverse)`` with each phrase's ``source``), so the phrases of the
        owner's lexicon and of an LLM compilation count beside those derived from the name.
        Set it before the first comparison of the question (the relation texts read so far
        are forgotten when it changes)."""
        if vocabulary is not self.vocabulary:
            self._texts.clear()
            self._sides.clear()
            self._gathers.clear()
            self._cosines.clear()
        self.vocabulary = vocabulary

    def relation_texts(self, name: str, own_texts: bool = False) -> tuple[str, ...]:
        """:func:`relation_texts`, the definition of a noun-named relation for a contextual
        model (:func:`relation_gloss`), and (unless ``own_texts``) the phrases the graph's
        vocabulary holds for the relation from other sources than its name (the owner's
        lexicon, an LLM), both ways."""
        key = (name, own_texts)
        got = self._texts.get(key)
        if got is not None:
            return got
        base = relation_texts(name)
        if self.contextual:
            defined = relation_gloss(name)
            if defined:
                base = (*base, defined)
        got = base
        voc = None if own_texts else self.vocabulary
        if voc is not None:
            try:
                extra = voc.other_texts(name)
            except (AttributeError, KeyError, TypeError):
                extra = ()
            if extra:
                got = tuple(dict.fromkeys([*base, *extra[:VOCABULARY_TEXTS]]))
        self._texts[key] = got
        return got

    def _name_cosines(self, emb: Any, left: list[str], names: list[str],
                      own_texts: bool = False) -> Any:
        """Cosines of words with relation names, each name read as its
        :meth:`relation_texts` (the best of them counts)."""
        key = (tuple(left), hash((tuple(names), own_texts)))
        got = self._cosines.get(key)
        if got is None:
            flat, index = self._gather(tuple(names), own_texts)
            cos = self.encode(emb, left) @ self.encode(emb, flat).T
            got = cos[:, index].max(axis=2) if len(names) else cos[:, :0]
            self._cosines[key] = got
        return got

    def _gather(self, names: tuple[str, ...], own_texts: bool = False
                ) -> tuple[list[str], Any]:
        """The distinct texts ``names`` are read as, and per name the indexes of its texts
        (padded with its first text's: a repeat leaves the best the same); per question."""
        import numpy as np

        key = hash((names, own_texts))
        got = self._gathers.get(key)
        if got is None:
            texts = [self.relation_texts(n, own_texts) for n in names]
            flat = list(dict.fromkeys(t for ts in texts for t in ts))
            at = {t: i for i, t in enumerate(flat)}
            width = max((len(ts) for ts in texts), default=1)
            index = np.array([[at[t] for t in ts] + [at[ts[0]]] * (width - len(ts))
                              for ts in texts], dtype=np.intp).reshape(len(names), width)
            got = self._gathers[key] = (flat, index)
        return got

    # ------------------------------------------------------------------ units
    def unit_scores(self, probes: Sequence[str], names: Sequence[str], *,
                    vocabulary: Sequence[str] = (), spread: tuple[float, float] = (1.0, 2.5),
                    gate: float = 0.5, own_texts: bool = False) -> dict[tuple[str, str], float]:
        """How well each probe (a question word or phrase) says each relation name, in
        [0, 1], *relative to the graph*: the best of the lexical match and the cosine's
        z-score among the probe's cosines to every relation of ``vocabulary`` (the graph's
        relation names), mapped linearly from ``spread[0]`` (0) to ``spread[1]`` (1)
        standard deviations — calibration-free across embedders: "job" is nearer
        ``occupation`` than anything else the graph has, though not near in absolute terms —
        and gated by the absolute cosine: nothing below the embedder's 90th-percentile
        unrelated pair, fully from ``gate`` of the way from there to its typical synonym
        pair (an idiom nothing in the graph is near stays unsaid). With fewer than four relations, or without a
        model, the calibrated cosine of :meth:`phrase_similarity` (lexical only without a
        model). ``own_texts``: ``names`` are read by their own words only (see
        :meth:`phrase_similarity`); the vocabulary's relations are read as always."""
        emb = self.model
        vocab = list(dict.fromkeys(vocabulary))
        vkey = hash((tuple(vocab), spread, gate, own_texts))
        pairs = [(p, n) for p in dict.fromkeys(probes) for n in dict.fromkeys(names)]

        def score(todo: list[tuple[str, str]]) -> dict[tuple[str, str], float]:
            got = {pq: (lexical_phrase_score(pq[0], pq[1]) if " " not in pq[0] else 0.0)
                   for pq in todo}
            if emb is not None and len(vocab) >= FLOOR_VOCABULARY:
                cos = self._cosine_of_pairs(emb, todo, own_texts)
                stats = self._probe_stats(emb, list(dict.fromkeys(p for p, _ in todo)), vocab)
                lo = self.scale.unrelated_p90
                hi = lo + gate * max(self.scale.top - lo, 1e-3)
                z0, z1 = spread
                for pq in todo:
                    c = cos[pq]
                    mu, sd = stats[pq[0]]
                    z = (c - mu) / sd
                    rel = min(1.0, max(0.0, (z - z0) / max(z1 - z0, 1e-3)))
                    gated = min(1.0, max(0.0, (c - lo) / max(hi - lo, 1e-3)))
                    got[pq] = max(got[pq], rel * gated)
            elif emb is not None:
                sem = self.phrase_similarity([p for p, _ in todo], [n for _, n in todo],
                                             vocabulary=vocabulary, own_texts=own_texts)
                got = {pq: max(v, sem.get(pq, 0.0)) for pq, v in got.items()}
            return got

        return self._memoised(self._unit, vkey, pairs, score)

    def _probe_stats(self, emb: Any, probes: list[str], vocab: list[str]
                     ) -> dict[str, tuple[float, float]]:
        """Per probe, the mean and standard deviation of its cosines to the vocabulary's
        names (each read as its :meth:`relation_texts`, the best counting), with a prior of
        :data:`PRIOR_NAMES` names at the embedder's unrelated level."""
        vkey = hash(tuple(vocab))
        with self._lock:
            todo = [p for p in probes if (p, vkey) not in self._stats]
        if todo:
            import numpy as np

            cos = self._name_cosines(emb, todo, vocab)
            n, k = cos.shape[1], PRIOR_NAMES
            # shrunk towards the embedder's unrelated pairs (a prior worth ``k`` names), so a
            # graph with a handful of relations does not make every cosine look typical
            mu0 = self.scale.unrelated
            sd0 = max((self.scale.unrelated_p90 - self.scale.unrelated) / 1.2816, 0.02)
            m = cos.mean(axis=1)
            mu = (n * m + k * mu0) / (n + k)
            var = (n * (cos.var(axis=1) + (m - mu) ** 2) + k * (sd0 ** 2 + (mu0 - mu) ** 2)
                   ) / (n + k)
            sd = np.sqrt(var)
            with self._lock:
                self._stats.update({(p, vkey): (float(a), max(float(d), 0.02))
                                    for p, a, d in zip(todo, mu, sd, strict=True)})
        with self._lock:
            return {p: self._stats[(p, vkey)] for p in probes}

    def _phrase_nouns(self, relation: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The nouns the owner's lexicon or an LLM's compiled phrases give ``relation``'s
        tails and heads: "N of" names its phrase's subject, a bare noun its object
        (forwards "X *city* Y": Y is X's city; backwards "Y *birthplace of* X": Y is)."""
        voc = self.vocabulary
        if voc is None:
            return (), ()
        ends: tuple[list[str], list[str]] = ([], [])  # (tails, heads)
        for inverse in (False, True):
            try:
                said = voc.phrases(relation, inverse, sources=("lexicon", "llm"))
            except (AttributeError, KeyError, TypeError):
                return (), ()
            for ph in said:
                ws = ph.text.lower().split()
                if not ws or ws[0] in lx.PREPOSITIONS or ws[0] in lx.ARTICLES:
                    continue
                if (named := of_noun(" ".join(ws))) is not None:
                    noun, subject = named, True
                elif not any(w in lx.PREPOSITIONS for w in ws) and base_verb(ws[-1]) is None:
                    noun, subject = " ".join(ws), False
                else:
                    continue
                # forwards the subject is the head, backwards the tail
                ends[1 if subject != inverse else 0].append(noun)
        return tuple(dict.fromkeys(ends[0])), tuple(dict.fromkeys(ends[1]))

    def noun_sides(self, probes: Sequence[str], relation: str) -> dict[str, tuple[float, float]]:
        """How well each probe names the node a hop along ``relation`` reaches, walked
        forwards and backwards (:func:`~byokg.language.relwords.end_nouns`: "children"
        forwards, its converse "parent" backwards), each in [0, 1]: lexical (stems,
        singulars) when either end's noun is written like the probe, else the calibrated
        cosine when both ends have a noun (one noun alone tells no direction)."""
        out: dict[str, tuple[float, float]] = {}
        todo = []
        with self._lock:
            for p in dict.fromkeys(probes):
                got = self._sides.get((p, relation))
                if got is None:
                    todo.append(p)
                else:
                    out[p] = got
        if todo:
            own = self._phrase_nouns(relation)
            sides = ((*end_nouns(relation, False), *own[0]),
                     (*end_nouns(relation, True), *own[1]))
            texts = list(dict.fromkeys(n for side in sides for n in side))
            emb = self.model
            cos = (self._pair_cosines(emb, todo, texts) if emb is not None and texts
                   else None)
            at = {t: i for i, t in enumerate(texts)}
            for i, p in enumerate(todo):
                # a word written like one end's noun decides; a model of meaning only
                # when neither is (it puts converse nouns close: "parent" ~ "child")
                # the probe or the general noun it names a kind of ("daughter": *child*)
                own = [p, *([h] if (h := hypernym(p)) else [])]
                pair = [max((_noun_match(w, n) for w in own for n in side), default=0.0)
                        for side in sides]
                if max(pair) == 0.0:
                    # its converse written like one end's noun names the other end
                    # ("teacher": the ends of ``supervisor`` backwards are its *students*)
                    other = [max((_noun_match(c, n) for w in own for c in converse_noun(w)
                                  for n in side), default=0.0) for side in sides]
                    pair = [other[1], other[0]]
                if max(pair) == 0.0 and cos is not None and all(sides):
                    pair = [max((self.scale(float(cos[i, at[n]])) for n in side), default=0.0)
                            for side in sides]
                out[p] = (pair[0], pair[1])
            with self._lock:
                self._sides.update({(p, relation): out[p] for p in todo})
        return out

    # ------------------------------------------------------------------ chains
    def question_text(self, masks: Sequence[tuple[int, int]] = (), *,
                      placeholder: bool = False) -> str:
        """The question with the character spans ``masks`` (its entity mentions) left out, or
        written as :data:`~byokg.language.lexicon.MENTION_PLACEHOLDER` with ``placeholder``."""
        q = self.analysis.question
        parts, at = [], 0
        for s, e in sorted(masks):
            parts.append(q[at:s])
            if placeholder:
                parts.append(MENTION_PLACEHOLDER)
            at = max(at, e)
        parts.append(q[at:])
        return ("".join(parts) if placeholder else " ".join(" ".join(parts).split())) or q

    def question_vector(self, masks: Sequence[tuple[int, int]] = (), *,
                        placeholder: bool = False) -> Any:
        """The vector of :meth:`question_text` (memoised per mask set); None without a
        model."""
        emb = self.model
        if emb is None:
            return None
        key = (placeholder, *sorted(masks))
        with self._lock:
            got = self._question_vec.get(key)
        if got is None:
            got = encode_cached(emb, [self.question_text(masks, placeholder=placeholder)])[0]
            with self._lock:
                self._question_vec[key] = got
        return got

    def chain_meaning(self, hops: Sequence[tuple[str, bool]],
                      masks: Sequence[tuple[int, int]] = ()) -> float:
        """How well the question (its mentions masked) says a relation chain read as English,
        in [0, 1]: the calibrated cosine of the question's vector with the sum of the hops'
        vectors, each hop the mean of its relation's :func:`relation_texts` (read both ways:
        "the birthplace of X" and "where was X born" say one relation). 0 without a model.
        Each relation's vector is made once per question."""
        emb = self.model
        if emb is None or not hops:
            return 0.0
        import numpy as np

        qv = self.question_vector(masks)
        total = None
        for rel, _inv in hops:
            v = self._hop_vec.get(rel)
            if v is None:
                v = self.encode(emb, list(self.relation_texts(rel))).mean(axis=0)
                n = float(np.linalg.norm(v))
                v = self._hop_vec[rel] = v / n if n > 0 else v
            total = v if total is None else total + v
        n = float(np.linalg.norm(total)) if total is not None else 0.0
        if n == 0.0:
            return 0.0
        return self.scale(float(qv @ (total / n)))

    def reading_scores(self, chains: Sequence[Sequence[tuple[str, bool]]],
                       masks: Sequence[tuple[int, int]] = ()) -> list[float]:
        """The cosine of the question, its mentions (character spans ``masks``) written as
        :data:`~byokg.language.lexicon.MENTION_PLACEHOLDER`, with each chain's best
        :func:`chain_readings`: one sentence against another, which only a contextual model
        (:attr:`contextual`) reads as more than its words. The question is embedded once per
        mask set; a reading once per embedder (and kept in the graph's vector file), in one
        batch. Zeros without a model."""
        emb = self.model
        if emb is None or not chains:
            return [0.0] * len(chains)
        qv = self.question_vector(masks, placeholder=True)
        readings = [chain_readings(tuple(h)) for h in chains]
        flat = list(dict.fromkeys(t for rs in readings for t in rs))
        cos = dict(zip(flat, (self.encode(emb, flat) @ qv).tolist(), strict=True))
        return [max(cos[t] for t in rs) for rs in readings]

    def _floors(self, emb: Any, ws: list[str], vocab: tuple[str, ...]) -> dict[str, float]:
        """Per word, the cosine from which it starts to say a relation (see
        :meth:`phrase_similarity`): the word's upper-quartile cosine over the vocabulary
        (``vocab``: the relation names without repeats; the scale never counts from below the
        word's own floor)."""
        vkey = hash(vocab)
        with self._lock:
            todo = [w for w in ws if (w, vkey) not in self._floor]
        if todo and len(vocab) >= FLOOR_VOCABULARY:
            import numpy as np

            cos = self._name_cosines(emb, todo, list(vocab))
            q = np.quantile(cos, TOPICAL_QUANTILE, axis=1)
            with self._lock:
                self._floor.update({(w, vkey): float(v) for w, v in zip(todo, q, strict=True)})
        with self._lock:
            return {w: self._floor[(w, vkey)] for w in ws if (w, vkey) in self._floor}


def _noun_match(word: str, noun: str) -> float:
    """Lexical likeness of a question word and a relational noun (its last word): 1 for the
    same singular, 0.8 for the same stem, else 0."""
    ws = noun.split()
    if not ws or not word:
        return 0.0
    a, b = singular(word.split()[-1]), singular(ws[-1])
    if a == b:
        return 1.0
    return 0.8 if stem(a) == stem(b) else 0.0
