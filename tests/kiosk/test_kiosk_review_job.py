"""The table's background review: a real separate process that reports progress, delivers both
seats' reviews (the same as reviewing in place) with their costliest decisions, and can be left."""

from __future__ import annotations

from engine.review import review_scenario
from engine.review.matches import bot_scenario
from engine.scenario import parse_scenario
from kiosk.table.review_job import ReviewJob, costliest


def _short_match() -> dict[str, object]:
    data = bot_scenario((1, 3), 2)
    data["steps"] = data["steps"][:50]
    return data


def test_the_job_reviews_both_seats_in_another_process_with_progress() -> None:
    data = _short_match()
    job = ReviewJob(data, samples=6, seed=4)
    assert job.review(0) is None and job.costliest(0) is None and not job.done
    assert job.wait(timeout=120.0), job.error
    assert job.progress == 1.0 and job.done_steps == job.total_steps == 2 * len(data["steps"])  # type: ignore[arg-type]
    assert not job.running
    for seat in (0, 1):
        here = review_scenario(parse_scenario(data), seat, samples=6, seed=4)
        assert job.review(seat) == here
        top = job.costliest(seat)
        assert top is not None and top == costliest(here)
        assert len(top) <= 3 and [c.loss for c in top] == sorted((c.loss for c in top), reverse=True)
        lost = sorted((d["loss"] for d in here["decisions"] if d["loss"] > 0), reverse=True)
        assert [c.loss for c in top] == lost[:3]
        luck = job.luck(seat)
        assert luck is not None and luck.result == here["luck"]["result"]
    assert job.costliest(0) != job.costliest(1)


def test_the_job_can_be_left_at_once() -> None:
    job = ReviewJob(bot_scenario((3, 3), 7), samples=400)
    job.cancel()
    assert not job.running and job.cancelled
    job.poll()
    assert not job.done and job.review(0) is None
    assert not job.wait(timeout=0.1)


def test_a_broken_scenario_is_reported_not_raised() -> None:
    job = ReviewJob({"steps": "none"}, samples=6)
    assert not job.wait(timeout=60.0)
    assert job.error is not None and "ScenarioError" in job.error
