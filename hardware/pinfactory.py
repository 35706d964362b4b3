"""Choosing the gpiozero pin factory for a backend."""

from __future__ import annotations

import importlib
import warnings

from gpiozero import Factory
from gpiozero.pins.mock import MockFactory

from .errors import PortUnavailable
from .notices import N_, Notice

REAL_FACTORIES: tuple[tuple[str, str], ...] = (
    ("lgpio", "gpiozero.pins.lgpio:LGPIOFactory"),
    ("rpigpio", "gpiozero.pins.rpigpio:RPiGPIOFactory"),
    ("pigpio", "gpiozero.pins.pigpio:PiGPIOFactory"),
    ("native", "gpiozero.pins.native:NativeFactory"),
)
"""Real pin factories in gpiozero's order of preference (mock is never picked here)."""


def real_pin_factory() -> Factory:
    """The first real Raspberry Pi pin factory that loads; PortUnavailable off a Pi.

    The error's notice is ``"no Raspberry Pi GPIO here ({reasons})"``, the reasons being each
    factory's own (English, technical) error.
    """
    reasons: list[str] = []
    for name, target in REAL_FACTORIES:
        module_name, class_name = target.split(":")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                module = importlib.import_module(module_name)
                factory: Factory = getattr(module, class_name)()
                return factory
        except Exception as error:
            reasons.append(f"{name}: {error}")
    raise PortUnavailable(Notice(N_("no Raspberry Pi GPIO here ({reasons})"), {"reasons": "; ".join(reasons)}))


def mock_pin_factory() -> MockFactory:
    """A fresh gpiozero MockFactory (pins start released, nothing shared with other factories)."""
    return MockFactory()
