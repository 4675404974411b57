"""The offline reasoner's weights model (plugins/offline/weights.py) and its confidence: one
frozen, typed model read by the scorer; a chain's score is its named features times the
weights; the confidence is a probability that separates right answers from wrong ones."""

from __future__ import annotations

import pydantic
import pytest
from byokg.plugins.offline.weights import WEIGHTS
from byokg.plugins.offline.weights import ChainWeights
from byokg.plugins.offline.weights import ConfidenceModel
from byokg.plugins.offline.weights import OfflineWeights

from benchmarks import paraphrase_graphs as pg
from byokg.pipeline.engine import Engine


def test_the_weights_are_frozen_and_typed():
    with pytest.raises(pydantic.ValidationError):
        WEIGHTS.chain.coverage = 2.0  # type: ignore[misc]
    with pytest.raises(pydantic.ValidationError):
        ChainWeights(unknown_weight=1.0)  # type: ignore[call-arg]
    with pytest.raises(pydantic.ValidationError):
        ChainWeights(said="a lot")  # type: ignore[arg-type]
    assert OfflineWeights().model_dump() == WEIGHTS.model_dump()


def test_a_score_is_the_weighted_sum_of_named_features():
    w = ChainWeights(said=1.0, type=2.0, meaning=0.5, step=0.1, order=0.04, idle=0.3, led=0.05,
                     weak=0.15, leftover=0.2, leftover_said=0.5, converse=0.25, voice=0.0,
                     mirror=0.0, conjunction=0.0, unnamed_end=0.0)
    f = {"said": 0.5, "type": -0.5, "meaning": 1.0, "extra_steps": 2.0, "order": 2.0,
         "idle": 1.0, "led": 2.0, "weak": 1.0, "leftover": 1.0, "leftover_said": 0.4,
         "converse": 1.0}
    assert w.combine(f) == pytest.approx(0.5 - 1.0 + 0.5 - 0.2 - 0.08 - 0.3 - 0.1 - 0.15
                                         - 0.2 - 0.2 - 0.25)
    assert w.combine({}) == 0.0


def test_the_scorer_reads_the_weights_it_is_given():
    """Two weights models rank the same chains differently: the scorer has no weight of its
    own."""
    v = pg.variant("music", "snake", True, False, per_kind=2)
    store = v.store()
    from byokg.plugins.offline.chains import Chain
    from byokg.plugins.offline.chains import ChainScorer

    from byokg.config import RunConfig
    from byokg.language.analysis import analyze
    from byokg.models.services import Services
    from byokg.models.similarity import Similarity

    sim = Similarity(analyze("Which band is Ada Brandt in?"), Services(RunConfig(embedder="lexical")))
    one = Chain(mention="Ada Brandt", hops=(("band", False),))
    two = Chain(mention="Ada Brandt", hops=(("band", False), ("genre", False)))
    plain = ChainScorer(sim, relations=["band", "genre"])
    costly = ChainScorer(sim, relations=["band", "genre"], weights=WEIGHTS.model_copy(
        update={"chain": WEIGHTS.chain.model_copy(update={"step": 5.0})}))
    for c in (one, two):
        plain.prepare([r for r, _ in c.hops])
    gap_plain = plain.score(one) - plain.score(two)
    gap_costly = costly.score(one) - costly.score(two)
    assert gap_costly == pytest.approx(gap_plain + 5.0 - WEIGHTS.chain.step)
    del store


def test_confidence_grows_with_the_margin():
    m = ConfidenceModel(intercept=-1.0, coefficients={"margin": 4.0})
    assert m.probability({"margin": 0.0}) < m.probability({"margin": 0.5}) < 1.0
    assert 0.0 < m.probability({}) < 0.5


def test_confidence_separates_right_from_wrong_answers():
    """On a generated graph of the fit split, answers come with a confidence in [0, 1], and
    the right ones are more confident on average than the wrong ones."""
    v = pg.variant("music", "upper", False, True, per_kind=8)
    eng = Engine(v.store())
    right, wrong = [], []
    for q in v.questions:
        a = eng.ask(q.text)
        if not a.answers:
            continue
        assert a.confidence is not None and 0.0 <= a.confidence <= 1.0
        first = (a.answer_ids.get(a.answers[0]) or [a.answers[0]])[0]
        (right if first in q.answers else wrong).append(a.confidence)
    assert right and wrong
    assert sum(right) / len(right) > sum(wrong) / len(wrong) + 0.1


def _tied(embedder: str, question: str, chains: list[tuple[tuple[str, bool], ...]],
          scores: list[float]):
    from byokg.plugins.offline.chains import Chain
    from byokg.plugins.offline.chains import ChainScorer

    from byokg.config import RunConfig
    from byokg.language.analysis import analyze
    from byokg.models.services import Services
    from byokg.models.similarity import Similarity

    sim = Similarity(analyze(question), Services(RunConfig(embedder=embedder)))
    at = question.index("Ada Quill")
    scorer = ChainScorer(sim, mentions={"Ada Quill": (at, at + len("Ada Quill"))},
                         relations=["place_of_birth", "employer", "spouse", "located_in"])
    return scorer, [Chain(mention="Ada Quill", hops=hops, ends={str(hops): 1}, score=s)
                    for hops, s in zip(chains, scores, strict=True)]


@pytest.mark.model
def test_a_contextual_model_breaks_near_ties_by_reading_the_chain():
    """MiniLM reads "in which country was X born" closer to "X born in located in" than to
    "X employer located in": of two two-hop chains within the reading band, the one the
    question says as a sentence leads; a chain out of the band, or of another length, or a
    one-hop tie is left alone, and a static model changes nothing (it reads a sentence as
    its words, which the unit scorer has weighed already)."""
    from byokg.models.embedders import minilm_available
    from byokg.models.similarity import chain_readings

    if not minilm_available():
        pytest.skip("MiniLM's weights are not installed")
    reads = chain_readings((("place_of_birth", False), ("children", True)))
    assert all(r.startswith("X ") and r.endswith("children of") for r in reads)
    assert any("birth" in r for r in reads) and len(reads) == len(set(reads)) >= 1
    band = WEIGHTS.chain.reading_band
    q = "In which country was Ada Quill born?"
    born = (("place_of_birth", False), ("located_in", False))
    works = (("employer", False), ("located_in", False))
    wed = (("spouse", False), ("located_in", False))
    scorer, chains = _tied("minilm", q, [works, born, wed], [0.5, 0.5 - band / 2, 0.5 - 2 * band])
    assert scorer.similarity.contextual
    assert scorer.rerank(chains)
    assert chains[1].score == pytest.approx(0.5 + WEIGHTS.chain.reading_lead)
    assert chains[0].score == 0.5 and chains[2].score == 0.5 - 2 * band
    assert "reading" in chains[0].parts and "reading" not in chains[2].parts
    # out of the band, or of another length than the best: the unit scorer's order stands
    for other, s in ((born, 0.5 - 2 * band), (born[:1], 0.5 - band / 2)):
        scorer, chains = _tied("minilm", q, [works, other], [0.5, s])
        assert not scorer.rerank(chains) and chains[1].score == s
    # one-hop ties: left to the units
    scorer, chains = _tied("minilm", q, [works[:1], born[:1]], [0.5, 0.5 - band / 2])
    assert not scorer.rerank(chains)
    # relations with phrases from an LLM (or the owner's lexicon): the units read those,
    # the readings only the names, so the units' order stands
    from byokg.graph.vocabulary import Compilation
    from byokg.graph.vocabulary import Vocabulary
    from byokg.graph.vocabulary import relation_words
    from byokg.graph.vocabulary import with_llm_phrases

    names = ["place_of_birth", "employer", "spouse", "located_in"]
    vocab = with_llm_phrases(Vocabulary(relations=tuple(relation_words(r) for r in names)),
                             {"employer": (("works for",), ("employs",))}, {},
                             Compilation(model="test"))
    scorer, chains = _tied("minilm", q, [works, born], [0.5, 0.5 - band / 2])
    scorer.similarity.use_vocabulary(vocab)
    assert not scorer.rerank(chains) and [c.score for c in chains] == [0.5, 0.5 - band / 2]
    # the static model: no rerank
    scorer, chains = _tied("static", q, [works, born], [0.5, 0.5 - band / 2])
    assert not scorer.similarity.contextual
    assert not scorer.rerank(chains) and [c.score for c in chains] == [0.5, 0.5 - band / 2]


def test_a_weakly_said_step_counts_part_of_its_similarity():
    """A unit that says its step below ``said_min`` adds ``weak_said`` of its similarity to
    the chain's said (an extra hop a vague word takes gains little); above it, all of it."""
    from byokg.plugins.offline.chains import ChainScorer

    from byokg.config import RunConfig
    from byokg.language.analysis import analyze
    from byokg.models.services import Services
    from byokg.models.similarity import Similarity

    sim = Similarity(analyze("What does Ada Brandt play?"), Services(RunConfig(embedder="lexical")))
    hops = (("instrument", False),)
    said = {}
    for share in (0.5, 1.0):
        scorer = ChainScorer(sim, mentions={"Ada Brandt": (10, 20)},
                             relations=["instrument", "genre"],
                             weights=WEIGHTS.model_copy(update={"chain": WEIGHTS.chain.model_copy(
                                 update={"weak_said": share})}))
        scorer.prepare(["instrument"])
        (k,) = [i for i, u in enumerate(scorer.units) if u.text == "play"]
        for value in (0.2, 0.9):
            scorer._us[(k, "instrument")] = value
            scorer._aligned.clear()
            said[(share, value)] = scorer.align(hops, "Ada Brandt").said
    assert said[(0.5, 0.2)] == pytest.approx(0.1)
    assert said[(1.0, 0.2)] == pytest.approx(0.2)
    assert said[(0.5, 0.9)] == said[(1.0, 0.9)] == pytest.approx(0.9)
