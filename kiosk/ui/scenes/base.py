"""What every scene is and has: the ``Scene`` base, its ``Context``, and full-screen layers.

A scene draws one screen or overlay from the controller's state and returns the hotspots its
buttons leave (each with an intent, ``kiosk.table.intents``); drawing changes nothing. A tap's
intent is offered to the scenes of the stack from the top: a scene takes the intents its own
buttons carry (``offers``) and hands them to the controller, which changes the state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import ClassVar

import pygame

from kiosk.i18n import Translator, translator
from kiosk.table.controller import Controller
from kiosk.table.intents import Intent
from kiosk.table.players import Seat
from kiosk.table.session import GameSession
from kiosk.table.state import Screen, UiState
from kiosk.ui import theme
from kiosk.ui.layout import LayoutRecorder
from kiosk.ui.part import Part
from kiosk.ui.regions import Regions, compute_regions, to_screen
from kiosk.ui.scenes.naming import NamedSeat
from kiosk.ui.theme import Fit
from kiosk.ui.widgets import Hotspot, draw_button, text


@dataclass(frozen=True, slots=True)
class ClockSpot:
    """Where a player's clock is on screen (a clock-only frame repaints just these)."""

    player: int
    rect: pygame.Rect
    turned: bool


class Context:
    """What the scenes draw from: the controller's state, the screen's size and regions, the languages."""

    def __init__(self, controller: Controller, size: tuple[int, int], orientation: str) -> None:
        self.controller = controller
        self.size = size
        self.orientation = orientation
        self.regions: Regions = compute_regions(size[0], size[1], orientation)
        self._names: dict[tuple[str, int, int], Translator] = {}
        self.layout_recorder: LayoutRecorder | None = None
        """Receives the layout record of each screen drawn (None: none is taken, as in the kiosk)."""
        self.fits: list[Fit] | None = None
        """Receives a ``Fit`` for every text drawn (None: none are kept)."""

    @contextmanager
    def recorded(self, layout: LayoutRecorder | None = None, fits: list[Fit] | None = None) -> Iterator[None]:
        """Inside the ``with``, what the stage draws is recorded into ``layout`` and ``fits``."""
        kept = self.layout_recorder, self.fits
        self.layout_recorder, self.fits = layout, fits
        try:
            yield
        finally:
            self.layout_recorder, self.fits = kept

    @property
    def ui(self) -> UiState:
        return self.controller.ui

    @property
    def session(self) -> GameSession:
        """The match at the table (the table's scenes are only on the stack with one)."""
        session = self.controller.session
        assert session is not None
        return session

    @property
    def t(self) -> Translator:
        """Shared texts: the host language."""
        return self._named(translator(self.ui.language))

    def t_for(self, player: int | None) -> Translator:
        """Texts for ``player`` (None: shared) in their language."""
        return self._named(translator(self.ui.player_language(player)))

    def _named(self, t: Translator) -> Translator:
        """``t``, calling the computer's seat by its name at the table of a practice match."""
        computer = self.controller.computer
        if computer is None or self.controller.session is None or Screen(self.ui.screen) is not Screen.MATCH:
            return t
        key = (t.language, computer.seat, computer.level)
        if key not in self._names:
            self._names[key] = NamedSeat(t, computer.seat, computer.level)
        return self._names[key]

    def seat(self, number: int) -> Seat:
        """Who sits in seat ``number``: a person or the computer, their name and language."""
        return self.controller.seat(number)

    def facing(self, player: int | None) -> bool:
        """Whether what is meant for ``player`` is drawn turned (player 2 in table mode)."""
        return player is not None and self.regions.turned[player]


class Scene:
    """One screen or overlay of the stack (``kiosk.ui.stage``)."""

    offers: ClassVar[tuple[type[Intent], ...]] = ()
    """The intents this scene's hotspots carry: taken by ``takes`` and handed to the controller by the stage."""
    opaque: ClassVar[bool] = False
    """It covers the whole screen: nothing beneath it is drawn or tapped."""

    def __init__(self, context: Context) -> None:
        self.context = context

    def takes(self, intent: Intent) -> bool:
        """Whether ``intent`` is one of this scene's (then the controller carries it out)."""
        return isinstance(intent, self.offers)

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        """Paint the scene onto ``surface``; returns its hotspots (topmost last)."""
        raise NotImplementedError

    def clocks(self) -> list[ClockSpot]:
        """The clocks this scene shows (the table's)."""
        return []


class Layer(Part):
    """A full-screen layer drawn upright for one player and turned toward them; hotspots mapped back."""

    def __init__(self, context: Context, facing: int | None) -> None:
        self.context = context
        # a full-screen layer is the whole table's while it is up (turned toward whoever uses it)
        super().__init__(pygame.Rect((0, 0), context.size), context.facing(facing), fill=theme.BACKGROUND)

    def button(self, rect: pygame.Rect, label: str, intent: Intent, primary: bool = False,
               enabled: bool = True, size: int | None = None) -> None:
        rect = clear_of_admin(self.context, rect, self.turned)
        draw_button(self.surface, rect, label, primary=primary, enabled=enabled, size=size)
        if enabled:
            self.spots.append(Hotspot(rect, intent))

    def finish(self, target: pygame.Surface) -> list[Hotspot]:
        """Put the layer on ``target``; returns its hotspots in screen coordinates."""
        return self.put(target)


def clear_of_admin(context: Context, rect: pygame.Rect, turned: bool) -> pygame.Rect:
    """``rect`` of a full-screen surface, moved left if, turned 180°, it would lie on the owner's area
    (which is at the screen's bottom-left corner: a turned layer's top-right)."""
    if not turned:
        return rect
    screen = pygame.Rect((0, 0), context.size)
    admin = to_screen(context.regions.admin_area, screen, True)  # the owner's area in the layer's coordinates
    if rect.colliderect(admin):
        return rect.move(admin.x - rect.right - 2, 0)
    return rect


def turned_toward(context: Context, surface: pygame.Surface, facing: int | None,
                  paint: Callable[[pygame.Surface], list[Hotspot]]) -> list[Hotspot]:
    """``paint`` a full screen upright, turned 180° toward ``facing`` when that seat sits across the
    table; the hotspots mapped back to the screen."""
    if not context.facing(facing):
        return paint(surface)
    part = Part(pygame.Rect((0, 0), context.size), True, fill=theme.BACKGROUND)
    part.add(paint(part.surface))
    return part.put(surface)


def pager(layer: Layer, t: Translator, page: int, count: int, intent: Callable[[int], Intent],
          rect: pygame.Rect) -> None:
    """▲ page x of y ▼ in ``rect`` (nothing when everything fits on one page)."""
    if count <= 1:
        return
    bw = rect.height * 3 // 2
    layer.button(pygame.Rect(rect.x, rect.y, bw, rect.height), "▲", intent(page - 1), enabled=page > 0)
    layer.button(pygame.Rect(rect.right - bw, rect.y, bw, rect.height), "▼", intent(page + 1),
                 enabled=page < count - 1)
    text(layer.surface, t._("Page {page} of {pages}", page=page + 1, pages=count),
         pygame.Rect(rect.x + bw, rect.y, rect.width - 2 * bw, rect.height), rect.height // 2, theme.TEXT_DIM)


def header(layer: Layer, title: str, back: Intent) -> int:
    """A title on the left and Back on the right; returns the y below them."""
    context = layer.context
    w, h = context.size
    pad = max(8, w // 60)
    bh = max(40, int(h * 0.1))
    bw = int(w * 0.2)
    text(layer.surface, title, pygame.Rect(pad, int(h * 0.02), w - 3 * pad - bw, bh), int(h * 0.08), theme.ACCENT,
         bold=True, align="left")
    layer.button(pygame.Rect(w - pad - bw, int(h * 0.02), bw, bh), context.t._("Back"), back, primary=True)
    return int(h * 0.02) + bh + int(h * 0.02)
