"""Post-match review: the points each decision of a seat cost, judged only on what that seat knew,
and the luck of the deals and draws (docs/review.md).

``review_scenario(scenario, seat, samples=..., seed=...)`` reviews a recorded match (a conformance
scenario, as ``kiosk.store.audit`` exports it). Pure and deterministic: the same scenario, seat,
samples and seed always give the same review; no clock is read, randomness comes from the seed.
"""

from __future__ import annotations

from .judge import BLUNDER, CLASSES, DEFAULT_SAMPLES, INACCURACY, MISTAKE, Judgement, classify, judge
from .walk import review_scenario, summarize

__all__ = ["BLUNDER", "CLASSES", "DEFAULT_SAMPLES", "INACCURACY", "MISTAKE", "Judgement", "classify", "judge",
           "review_scenario", "summarize"]
