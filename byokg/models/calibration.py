"""What an embedder's cosines mean: typical values for unrelated and for related words.

Each embedder has a ``calibration`` (:class:`Calibration`), measured on the generic English
word pairs below (not any graph's or benchmark's relation names): ``related`` is the median
cosine of synonym and paraphrase pairs, ``unrelated`` the median over every cross pairing of
those words (a word with another pair's partner). A similarity service maps a cosine to [0, 1]
with :meth:`Calibration.scale` instead of constants fitted to one model.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field
from pydantic import model_validator

from byokg.language import lexicon

# Synonym and paraphrase pairs of everyday English (no graph schema's names)
RELATED_PAIRS: tuple[tuple[str, str], ...] = lexicon.CALIBRATION_PAIRS


class Calibration(BaseModel):
    """Cosine landmarks of one embedder (see the module docstring for how they are measured)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    unrelated: float = Field(description="median cosine of unrelated word pairs")
    related: float = Field(description="median cosine of synonym/paraphrase pairs")
    unrelated_p90: float = Field(description="90th percentile of the unrelated pairs' cosines")
    related_p10: float = Field(description="10th percentile of the related pairs' cosines")
    pairs: int = Field(ge=1, description="related pairs measured")

    @model_validator(mode="after")
    def _ordered(self) -> Calibration:
        if not self.related > self.unrelated:
            raise ValueError(f"related ({self.related}) must exceed unrelated ({self.unrelated})")
        return self

    def scale(self, cosine: float) -> float:
        """``cosine`` on a 0 (typical unrelated pair) to 1 (typical synonym pair) scale, clipped."""
        x = (float(cosine) - self.unrelated) / (self.related - self.unrelated)
        return min(1.0, max(0.0, x))


def measure(embedder: Any, pairs: tuple[tuple[str, str], ...] = RELATED_PAIRS) -> Calibration:
    """Measure ``embedder``'s :class:`Calibration` on ``pairs`` (needs numpy)."""
    import numpy as np

    left = embedder.encode([a for a, _ in pairs])
    right = embedder.encode([b for _, b in pairs])
    cos = np.asarray(left @ right.T, dtype=np.float64)
    related = np.diag(cos)
    unrelated = cos[~np.eye(len(pairs), dtype=bool)]
    return Calibration(
        unrelated=round(float(np.median(unrelated)), 4),
        related=round(float(np.median(related)), 4),
        unrelated_p90=round(float(np.quantile(unrelated, 0.9)), 4),
        related_p10=round(float(np.quantile(related, 0.1)), 4),
        pairs=len(pairs),
    )
