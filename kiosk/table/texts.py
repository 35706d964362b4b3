"""The controller's own lines, in the host language: the simulator's key legend and the settings
screen's status lines (screen, hand-over, clock, buttons and panel, language, warnings)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hardware.events import Button
from hardware.serial_panel import PanelStatus
from kiosk.config import KioskConfig
from kiosk.i18n import DECIMAL_SEPARATORS, NATIVE_NAMES, Translator, translator
from kiosk.i18n.messages import as_text


@dataclass(frozen=True, slots=True)
class Surroundings:
    """What the controller reports about the machine it runs on (settings screen, key legend)."""

    screen_size: tuple[int, int] = (0, 0)
    backend: str = "mock"
    """The GPIO backend in use."""
    panel_status: Callable[[], str | None] = lambda: None
    """The serial panel's state now ("connected", ...), None without a panel."""


def key_legend(config: KioskConfig, language: str) -> str:
    """The simulator's keys for the buttons, and the admin exit key."""
    t = translator(language)
    keys = config.hardware.keys
    names = {Button.ACCEPT: t._("accept"), Button.RAISE: t._("raise"), Button.DECLINE: t._("decline")}
    parts = []
    for player in (0, 1):
        own = [f"{key.upper()} {names.get(button, button.name.lower())}" for key, p, button in keys if p == player]
        parts.append(t._("Player {number}: {keys}", number=player + 1, keys=", ".join(own)))
    return t._("Keys  {players}   (hold {key} to quit)", players="   ".join(parts),
               key=config.kiosk.admin_exit_key)


MOST_WARNINGS_LISTED = 60
"""The settings screen lists this many warnings; the check tool lists them all."""


def status_text(config: KioskConfig, language: str, where: Surroundings, warnings: tuple[object, ...]) -> str:
    """The settings screen's lines: screen, hand-over, clock, buttons and panel, language, warnings."""
    t = translator(language)
    c = config
    panel = where.panel_status()
    size = {"width": where.screen_size[0], "height": where.screen_size[1]}
    lines = [
        t._("Screen: {width} x {height}, table orientation", **size) if c.display.orientation == "table"
        else t._("Screen: {width} x {height}, upright orientation", **size),
        t._("Hand-over screen between turns: on") if c.match.handover else t._("Hand-over screen between turns: off"),
        t.n_("Clock: {bank} s bank, {delay} s delay; {n} point each", "Clock: {bank} s bank, {delay} s delay; {n} points each",
             c.match.balances, bank=_number(t, c.match.bank_seconds), delay=_number(t, c.match.delay_seconds)),
        t._("Buttons: {backend} GPIO; serial panel: {panel}", backend=where.backend,
            panel=t(as_text(PanelStatus(panel).notice)) if panel else t._("none")),
        t._("Language: {language}", language=NATIVE_NAMES[t.language]),
        t._("Sound volume: {volume}", volume=c.sound.volume),
        t._("Change these in the configuration file (see the README)."),
    ]
    lines += [t._("Warning: {warning}", warning=t(as_text(w))) for w in warnings[:MOST_WARNINGS_LISTED]]
    if len(warnings) > MOST_WARNINGS_LISTED:
        more = len(warnings) - MOST_WARNINGS_LISTED
        lines.append(t.n_("… and {n} more warning: python -m kiosk.config --check lists every one",
                          "… and {n} more warnings: python -m kiosk.config --check lists every one", more))
    return "\n".join(lines)


def _number(t: Translator, value: float) -> str:
    """A setting's number as ``t``'s language writes it ("2.5" / "2,5")."""
    return format(value, "g").replace(".", DECIMAL_SEPARATORS.get(t.language, "."))
