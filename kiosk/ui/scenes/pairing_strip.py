"""A club event's pairing where the home screen's title was: "Anna vs Ben — Friday Swiss, round 3" and
its Start button (``StartPairing``); the ready screen's event line and each player's berserk choice."""

from __future__ import annotations

import pygame

from kiosk.club.pairing import Pairing
from kiosk.i18n import Translator
from kiosk.table.intents import Berserk, StartPairing
from kiosk.ui import theme
from kiosk.ui.widgets import Hotspot, draw_button, text, text_or_wrap

MIN_BUTTON = 48
"""The Start button's least height and width's share (a touch target at 800 × 480)."""


def pairing_line(t: Translator, pairing: Pairing) -> str:
    """ "Anna vs Ben — Friday Swiss, round 3" (an arena has no rounds) in ``t``'s language."""
    first, second = (p.name for p in pairing.players)
    if pairing.round is None:
        return t._("{first} vs {second} — {event}", first=first, second=second, event=pairing.event_name)
    return t._("{first} vs {second} — {event}, round {round}", first=first, second=second,
               event=pairing.event_name, round=pairing.round)


def event_line(t: Translator, pairing: Pairing) -> str:
    """ "Friday Swiss, round 3" (the event's name alone in an arena)."""
    if pairing.round is None:
        return pairing.event_name
    return t._("{event}, round {round}", event=pairing.event_name, round=pairing.round)


def draw_pairing(surface: pygame.Surface, rect: pygame.Rect, t: Translator, pairing: Pairing) -> list[Hotspot]:
    """The pairing's line and its Start button across the middle 86 % of ``rect`` (the home screen's
    column of buttons; the button at least 48 px tall)."""
    rect = pygame.Rect(rect.x + rect.width * 7 // 100, rect.y, rect.width * 86 // 100, rect.height)
    gap = max(6, rect.width // 80)
    bh = max(MIN_BUTTON, min(rect.height - 4, 56))
    bw = max(rect.width // 5, 120)
    button = pygame.Rect(rect.right - bw, rect.centery - bh // 2, bw, bh)
    line = pygame.Rect(rect.x, rect.y, button.x - rect.x - gap, rect.height)
    text_or_wrap(surface, pairing_line(t, pairing), line, min(rect.height, 30), theme.ACCENT, role="title")
    draw_button(surface, button, t._("Start"), primary=True)
    return [Hotspot(button, StartPairing(pairing.uuid))]


def draw_event_seat(panel: pygame.Surface, rect: pygame.Rect, t: Translator, name: str, seat: int, offered: bool,
                    chosen: bool) -> list[Hotspot]:
    """The ready screen's hand area for an event's seat: who plays here (the event's, no picker) and,
    in an arena that allows it, this player's berserk toggle."""
    if not offered:
        text(panel, name, rect, min(rect.height // 2, 34), theme.TEXT, bold=True)
        return []
    caption = pygame.Rect(rect.x, rect.y, rect.width, max(18, rect.height // 3))
    text(panel, name, caption, caption.height, theme.TEXT, bold=True)
    button = pygame.Rect(0, 0, rect.width,
                         max(MIN_BUTTON, rect.height - caption.height - 6))
    button.midtop = (rect.centerx, caption.bottom + 4)
    label = t._("Berserk chosen: half the bank") if chosen else t._("Berserk: half my bank, +1 point for a win")
    draw_button(panel, button, label, primary=chosen)
    return [Hotspot(button, Berserk(seat))]
