"""Hold-to-repeat for the settings editor's steppers: a finger (or the mouse) held on − or +
steps once at the press, again after ``REPEAT_AFTER_NS`` and then every ``REPEAT_EVERY_NS``
(faster, ``REPEAT_FAST_NS``, after ``FAST_AFTER`` repeats) until it is lifted. Pure bookkeeping on
the controller's clock: which intents are due at a time."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from engine import NS_PER_S
from kiosk.table.intents import Intent

REPEAT_AFTER_NS = NS_PER_S // 2
"""A held stepper starts repeating after half a second."""
REPEAT_EVERY_NS = NS_PER_S // 8
"""Then it steps eight times a second."""
REPEAT_FAST_NS = NS_PER_S // 20
"""And twenty times a second after ``FAST_AFTER`` repeats."""
FAST_AFTER = 10


@dataclass
class HeldStepper:
    """One held stepper: what it does, when it steps next, how often it has repeated."""

    intent: Intent
    next_ns: int
    repeats: int = 0


class StepperRepeat:
    """The steppers held now, by input source (the mouse, each finger)."""

    def __init__(self) -> None:
        self._held: dict[Hashable, HeldStepper] = {}

    def press(self, source: Hashable, intent: Intent, now: int) -> None:
        """``source`` went down on a stepper doing ``intent`` (the press itself steps as a tap)."""
        self._held[source] = HeldStepper(intent, now + REPEAT_AFTER_NS)

    def release(self, source: Hashable) -> None:
        """``source`` was lifted."""
        self._held.pop(source, None)

    def clear(self) -> None:
        """The steppers are gone from the screen: nothing repeats."""
        self._held.clear()

    def due(self, now: int) -> list[Intent]:
        """The steps due by ``now``, in order (each held stepper's repeats since the last call)."""
        steps: list[Intent] = []
        for held in self._held.values():
            while held.next_ns <= now:
                steps.append(held.intent)
                held.repeats += 1
                held.next_ns += REPEAT_FAST_NS if held.repeats >= FAST_AFTER else REPEAT_EVERY_NS
        return steps

    def next_due_ns(self) -> int | None:
        """When the next repeat is due (None: nothing held)."""
        return min((held.next_ns for held in self._held.values()), default=None)
