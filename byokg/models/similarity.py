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

import threading
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from byokg.language.analysis import (
    QuestionAnalysis,
    humanize_relation,
    lexical_phrase_score,
    lexical_relation_scores,
)

if TYPE_CHECKING:
    from pathlib import Path

    import numpy as np

    from byokg.models.cache import VectorFile

VEC_CACHE_MAX = 200_000  # vectors kept per embedder before its cache is cleared
COSINE_FLOOR = 0.3  # MiniLM cosine of unrelated words sits around 0.2-0.3
COSINE_SPAN = 0.38  # FLOOR + SPAN and above: a full match
TOPICAL_QUANTILE = 0.75  # a word's own floor: this quantile of its cosines to the graph's relations

_VEC_LOCK = threading.Lock()
_VECTORS: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


def _vector_cache(embedder: Any) -> dict[str, Any]:
    with _VEC_LOCK:
        try:
            return _VECTORS.setdefault(embedder, {})
        except TypeError:  # an embedder that cannot be weakly referenced keeps no cache
            return {}


def encode_cached(embedder: Any, texts: Sequence[str], *, batch_size: int = 128,
                  file: VectorFile | None = None) -> np.ndarray:
    """``embedder.encode(texts)`` with a cache per embedder object; only unseen texts are
    encoded. With ``file`` (the graph's vectors on disk for this embedder) texts it holds are
    read from it and new ones are added to it."""
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
            file.add(dict(zip(missing, vecs, strict=True)))
    else:
        with _VEC_LOCK:
            found = {t: cache[t] for t in texts}
    dim = int(getattr(embedder, "dim", 0) or (len(next(iter(found.values()))) if found else 0))
    if not texts:
        return np.zeros((0, dim), np.float32)
    return np.stack([found[t] for t in texts]).astype(np.float32, copy=False)


def semantic_model(services: Any) -> Any:
    """The model for meaning-level similarity: the run's configured embedder, else MiniLM when
    it is installed, else None (lexical only). The character n-gram ``lexical`` embedder says
    nothing about meaning and is not used here."""
    if services is None:
        return None
    cfg = services.config
    name = cfg.embedder
    if name is None:
        from byokg.models.embedders import minilm_available

        try:
            if not minilm_available():
                return None
        except ImportError:  # an import hook that refuses optional packages (a lean install)
            return None
    elif str(name).startswith("lexical"):
        return None
    return services.embedder


def calibrate_cosine(cos: float, floor: float = COSINE_FLOOR) -> float:
    """A sentence-embedding cosine mapped to [0, 1] like the lexical scores (at or below
    ``floor``: 0)."""
    return max(0.0, min(1.0, (cos - floor) / COSINE_SPAN))


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
        self._lock = threading.Lock()
        self._rel: dict[str, float] = {}
        self._sim: dict[tuple[str, str, bool], float] = {}
        self._floor: dict[str, float] = {}
        self._model: Any = None
        self._model_known = False

    @property
    def model(self) -> Any:
        """The model of meaning used for word similarity (None: lexical only)."""
        if not self._model_known:
            self._model = semantic_model(self.services)
            self._model_known = True
        return self._model

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
                          semantic: bool = True, vocabulary: Sequence[str] = ()
                          ) -> dict[tuple[str, str], float]:
        """How well each question word says each relation or property name, in [0, 1]: the
        best of the lexical match (:func:`~byokg.language.analysis.lexical_phrase_score`) and
        the calibrated cosine of the model of meaning when ``semantic`` and there is one.

        ``vocabulary`` (the graph's relation names) calibrates the cosine per word: a word
        about as close to most of the graph's relations ("movies" in a film graph) is topical,
        not a relation word, so its cosines count only above its own typical level. Pass the
        same vocabulary for the whole question (the floors are memoised with the scores)."""
        emb = self.model if semantic else None
        flag = emb is not None
        if emb is not None and not names:
            self._floors(emb, list(dict.fromkeys(words_)), vocabulary)
            return {}
        pairs = [(w, n) for w in dict.fromkeys(words_) for n in dict.fromkeys(names)]
        with self._lock:
            todo = [p for p in pairs if (p[0], p[1], flag) not in self._sim]
        if todo:
            got = {p: lexical_phrase_score(p[0], p[1]) for p in todo}
            if emb is not None:
                ws = list(dict.fromkeys(w for w, _ in todo))
                ns = list(dict.fromkeys(n for _, n in todo))
                cos = self._pair_cosines(emb, ws, [humanize_relation(n) for n in ns])
                floors = self._floors(emb, ws, vocabulary)
                wi = {w: i for i, w in enumerate(ws)}
                ni = {n: i for i, n in enumerate(ns)}
                for p in todo:
                    c = float(cos[wi[p[0]], ni[p[1]]])
                    got[p] = max(got[p], calibrate_cosine(c, floors.get(p[0], COSINE_FLOOR)))
            with self._lock:
                self._sim.update({(w, n, flag): v for (w, n), v in got.items()})
        with self._lock:
            return {p: self._sim[(p[0], p[1], flag)] for p in pairs}

    def said_words(self, threshold: float, names: Sequence[str] | None = None) -> set[str]:
        """Question words that some name compared so far says with at least ``threshold``
        (only names in ``names`` when given)."""
        allowed = None if names is None else set(names)
        with self._lock:
            items = list(self._sim.items())
        return {w for (w, n, _flag), v in items
                if v >= threshold and (allowed is None or n in allowed)}

    def warm(self, texts: Sequence[str]) -> None:
        """Embed ``texts`` in one batch now (the model is slowest when called often with a few
        texts)."""
        if self.model is not None and texts:
            self.encode(self.model, list(dict.fromkeys(texts)))

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

    def _floors(self, emb: Any, ws: list[str], vocabulary: Sequence[str]) -> dict[str, float]:
        """Per word, the cosine from which it starts to say a relation (see
        :meth:`phrase_similarity`): the word's upper-quartile cosine over the vocabulary, never
        below :data:`COSINE_FLOOR`."""
        with self._lock:
            todo = [w for w in ws if w not in self._floor]
        if todo and len(vocabulary) >= 4:
            import numpy as np

            vocab = list(dict.fromkeys(vocabulary))
            cos = self._pair_cosines(emb, todo, [humanize_relation(n) for n in vocab])
            q = np.quantile(cos, TOPICAL_QUANTILE, axis=1)
            with self._lock:
                self._floor.update({w: max(COSINE_FLOOR, float(v))
                                    for w, v in zip(todo, q, strict=True)})
        with self._lock:
            return {w: self._floor.get(w, COSINE_FLOOR) for w in ws}
