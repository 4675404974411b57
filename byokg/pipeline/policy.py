"""What a stage's failure does to the question: the one table the engine reads.

=========== ============================= =====================================================
stage       failure                       outcome
=========== ============================= =====================================================
proposer    out of LLM calls              ``end-rounds``: no more rounds; the answer stage runs
                                          on what was retrieved
proposer    any other error (LLM, config, ``stop``: the question ends with the error (the
            a bug)                        partial answer attached to an :class:`LLMError`)
linker      a byokg error (config, input, ``stop``
            backend)
linker      any other error               ``skip``: this round links nothing; an error event
tool        any error (LLM, query, a bug) ``skip``: the tool adds nothing this round; an error
                                          event names it; the other tools' context stands
answerer    out of LLM calls              ``empty``: no answer; a budget warning
answerer    any other error               ``stop``
any         cancellation                  never caught: a stopped question stops
=========== ============================= =====================================================

A tool is one of several sources side by side, so its failure costs its context only; the
proposer and the answerer are the question's one path, so theirs ends it (a broken plan cannot
be answered around). Cancellation (:class:`byokg.cancel.Cancelled`) is a ``BaseException`` and
passes every handler.
"""

from __future__ import annotations

from enum import StrEnum

from byokg.errors import ByokgError
from byokg.models.budget import BudgetExhausted


class Outcome(StrEnum):
    STOP = "stop"
    END_ROUNDS = "end-rounds"
    SKIP = "skip"
    EMPTY = "empty"


# stage -> (exception class, outcome), most specific first; the first class the error is wins
POLICY: dict[str, tuple[tuple[type[BaseException], Outcome], ...]] = {
    "proposer": ((BudgetExhausted, Outcome.END_ROUNDS), (Exception, Outcome.STOP)),
    "linker": ((ByokgError, Outcome.STOP), (Exception, Outcome.SKIP)),
    "tool": ((Exception, Outcome.SKIP),),
    "answerer": ((BudgetExhausted, Outcome.EMPTY), (Exception, Outcome.STOP)),
}


def outcome(stage: str, exc: BaseException) -> Outcome:
    """What ``exc`` raised by ``stage`` (``proposer``, ``linker``, ``tool``, ``answerer``) does
    to the question; anything the table does not name (cancellation) stops it."""
    for cls, out in POLICY[stage]:
        if isinstance(exc, cls):
            return out
    return Outcome.STOP
