"""The layout record: every text and touch target of a drawn screen, where it is on screen, which
seat it faces and is meant for, and its colours — written beside each screenshot and checked by
the layout tests and ``layout_audit.py``.

It is taken while drawing, from the same calls that paint the texts (``kiosk.ui.widgets``) and
from the hotspots that route the taps (``Stage.hotspots``); nothing is listed twice by hand.
A text drawn on a part's own surface (a player's panel, a card, a full-screen layer) is mapped to
the screen through that part's frame: where the surface is put and whether it is turned 180°.
Whoever wants the record hands a ``LayoutRecorder`` to the drawing context
(``Context.recorded(layout=...)``); the stage records into it while it draws (``recording``), and
nothing is recorded otherwise (the running kiosk).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

import pygame

SHARED_ROLES: frozenset[str] = frozenset({"round", "end_count", "score", "result"})
"""What both players need in table orientation: shown once facing each."""


@dataclass(frozen=True, slots=True)
class TextRecord:
    """One text as drawn on screen."""

    rect: tuple[int, int, int, int]
    px: int
    facing: int
    """0: reads upright from Player 1's (bottom) edge; 1: from Player 2's (top) edge."""
    seat: int | None
    """The player the text is for (None: both, or nobody in particular)."""
    role: str
    fg: tuple[int, int, int]
    bg: tuple[int, int, int]
    text: str

    def as_json(self) -> dict[str, object]:
        return {"rect": list(self.rect), "px": self.px, "facing": self.facing, "seat": self.seat, "role": self.role,
                "fg": _hex(self.fg), "bg": _hex(self.bg), "text": self.text}


@dataclass(frozen=True, slots=True)
class Frame:
    """Where a part's surface goes: its rectangle on the parent surface (None: the screen), turned or not."""

    rect: pygame.Rect
    turned: bool
    seat: int | None
    parent: pygame.Surface | None


@dataclass
class LayoutRecorder:
    """The texts of one drawn screen (targets come from the stage's hotspots)."""

    texts: list[TextRecord] = field(default_factory=list)
    frames: dict[int, tuple[pygame.Surface, Frame]] = field(default_factory=dict)
    screen: pygame.Surface | None = None
    """The surface the whole screen is drawn on."""
    board: list[tuple[str, tuple[int, int, int, int]]] = field(default_factory=list)
    """What the board shows that no text may cover: ("tile" | "lit" | "badge", screen rectangle), and
    the message bars drawn over the board ("bar"), which may cover none of those."""

    def cover(self, rect: pygame.Rect, partly: bool = False) -> None:
        """An overlay hides ``rect``: the texts and board items drawn there so far are no longer on screen
        (``partly``: also those it hides in part, such as a waiting player's button under the owner's keypad)."""
        def hidden(r: pygame.Rect) -> bool:
            return rect.colliderect(r) if partly else rect.contains(r)

        self.texts = [t for t in self.texts if not hidden(pygame.Rect(t.rect))]
        self.board = [b for b in self.board if not hidden(pygame.Rect(b[1]))]

    def clear(self, screen: pygame.Surface | None = None) -> None:
        """Start a new screen drawn on ``screen``."""
        self.texts.clear()
        self.board.clear()
        self.frames.clear()
        self.screen = screen


_RECORDING: ContextVar[LayoutRecorder | None] = ContextVar("layout_recording", default=None)
KEEP: object = object()
"""The default ``seat`` of a text: the seat of the part it is drawn on."""


def recorder() -> LayoutRecorder | None:
    """The recorder of the drawing under way (None: nothing is recorded)."""
    return _RECORDING.get()


@contextmanager
def recording(into: LayoutRecorder | None) -> Iterator[LayoutRecorder | None]:
    """Record what is drawn inside the ``with`` into ``into`` (None: nothing), as before after it."""
    token = _RECORDING.set(into)
    try:
        yield into
    finally:
        _RECORDING.reset(token)


def frame(surface: pygame.Surface, rect: pygame.Rect, turned: bool, seat: int | None = None,
          parent: pygame.Surface | None = None) -> None:
    """Declare that ``surface`` will be put at ``rect`` of ``parent`` (the screen when None), turned
    180° or not; its texts are meant for ``seat`` unless they say otherwise."""
    if (active := recorder()) is not None:
        active.frames[id(surface)] = (surface, Frame(pygame.Rect(rect), turned, seat, parent))


def _frame_of(surface: pygame.Surface) -> Frame | None:
    active = recorder()
    assert active is not None
    entry = active.frames.get(id(surface))
    return entry[1] if entry is not None and entry[0] is surface else None


def _to_parent(local: pygame.Rect, f: Frame) -> pygame.Rect:
    if not f.turned:
        return local.move(f.rect.x, f.rect.y)
    return pygame.Rect(f.rect.right - local.right, f.rect.bottom - local.bottom, local.width, local.height)


def to_screen(surface: pygame.Surface, rect: pygame.Rect) -> tuple[pygame.Rect, bool, int | None]:
    """``rect`` of ``surface`` on the screen: the rectangle, whether it reads turned, the frame's seat."""
    turned = False
    seat: int | None = None
    seat_known = False
    current: pygame.Surface | None = surface
    rect = pygame.Rect(rect)
    for _ in range(8):  # frames nest a few levels at most
        if current is None:
            break
        f = _frame_of(current)
        if f is None:
            break
        rect = _to_parent(rect, f)
        turned ^= f.turned
        if not seat_known and f.seat is not None:
            seat, seat_known = f.seat, True
        current = f.parent
    return rect, turned, seat


def _background(surface: pygame.Surface, rect: pygame.Rect) -> tuple[int, int, int]:
    """The colour most of ``rect`` shows on ``surface`` (before the text is put there)."""
    area = rect.clip(surface.get_rect())
    if not area.w or not area.h:
        return (0, 0, 0)
    counts: Counter[tuple[int, int, int, int]] = Counter()
    for i in range(5):
        for j in range(3):
            x = area.x + (2 * i + 1) * area.w // 10
            y = area.y + (2 * j + 1) * area.h // 6
            c = surface.get_at((x, y))
            counts[(c.r, c.g, c.b, c.a)] += 1
    r, g, b, a = counts.most_common(1)[0][0]
    if a < 255:
        f = _frame_of(surface)
        active = recorder()
        parent = None if f is None else f.parent if f.parent is not None else active.screen if active else None
        if f is not None and parent is not None:
            under = _background(parent, _to_parent(area, f))
            return (
                (r * a + under[0] * (255 - a)) // 255,
                (g * a + under[1] * (255 - a)) // 255,
                (b * a + under[2] * (255 - a)) // 255,
            )
    return (r, g, b)


def text(surface: pygame.Surface, where: pygame.Rect, px: int, colour: tuple[int, int, int], value: str,
         role: str = "other", seat: object = KEEP, image: pygame.Surface | None = None) -> None:
    """Record ``value`` about to be drawn at ``where`` on ``surface`` (call before blitting it); with
    its rendered ``image``, the rectangle is the ink's."""
    active = recorder()
    if active is None or not value.strip():
        return
    if image is not None:
        ink = image.get_bounding_rect()
        if ink.w and ink.h:
            where = ink.move(where.topleft)
    clipped = where.clip(surface.get_rect())
    if not clipped.w or not clipped.h:
        return
    bg = _background(surface, clipped)
    rect, turned, frame_seat = to_screen(surface, clipped)
    chosen = frame_seat if seat is KEEP else seat
    assert chosen is None or isinstance(chosen, int)
    active.texts.append(TextRecord((rect.x, rect.y, rect.w, rect.h), px, 1 if turned else 0, chosen, role,
                                     tuple(colour[:3]), bg, value))  # type: ignore[arg-type]


def board_item(surface: pygame.Surface, rect: pygame.Rect | tuple[int, int, int, int], what: str) -> None:
    """Record a tile, a lit point or a score badge drawn at ``rect`` of ``surface`` (no text may cover it)."""
    active = recorder()
    if active is None:
        return
    clipped = pygame.Rect(rect).clip(surface.get_rect())
    if clipped.w and clipped.h:
        on_screen = to_screen(surface, clipped)[0]
        active.board.append((what, (on_screen.x, on_screen.y, on_screen.w, on_screen.h)))


def hide_board(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """A card drawn at ``rect`` of ``surface`` hides the board under it on purpose: the board items
    there are no longer on screen (its texts are still checked against the texts around it)."""
    active = recorder()
    if active is not None:
        area = to_screen(surface, rect)[0]
        hidden = [pygame.Rect(b[1]).inflate(2, 2) for b in active.board
                  if b[0] == "badge" and area.colliderect(pygame.Rect(b[1]))]
        active.board = [b for b in active.board if not area.colliderect(pygame.Rect(b[1]))]
        active.texts = [t for t in active.texts  # a hidden badge's own numbers go with it
                          if not any(badge.contains(pygame.Rect(t.rect)) for badge in hidden)]


def _hex(colour: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour[:3])


def record_json(recorder: LayoutRecorder, *, scene: str, size: tuple[int, int], orientation: str, language: str,
                admin_area: pygame.Rect | None, targets: list[tuple[pygame.Rect, int | None, str]]) -> dict[str, object]:
    """The layout record of one screen, as the JSON object written beside its PNG."""
    return {
        "scene": scene,
        "size": list(size),
        "orientation": orientation,
        "language": language,
        "admin_area": None if admin_area is None else [admin_area.x, admin_area.y, admin_area.w, admin_area.h],
        "targets": [{"rect": [r.x, r.y, r.w, r.h], "seat": seat, "what": what} for r, seat, what in targets],
        "texts": [t.as_json() for t in recorder.texts],
        "board": [{"rect": list(r), "what": what} for what, r in recorder.board],
    }


# -- checking a record (the layout tests; ../shared/tools/layout_audit.py checks the same) ---------

MIN_TARGET = 48
"""A touch target's short side at 800 x 480, in pixels."""
MIN_TEXT = 16
"""No text is drawn smaller (``theme.MIN_SIZE``: fitting stops there)."""


def contrast(a: str, b: str) -> float:
    """The WCAG 2 contrast ratio of two ``#rrggbb`` colours."""

    def luminance(colour: str) -> float:
        h = colour.lstrip("#")
        r, g, b = (int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))
        f = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        return 0.2126 * f[0] + 0.7152 * f[1] + 0.0722 * f[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def problems(record: dict[str, object], image: pygame.Surface) -> list[str]:
    """What is wrong with one screen's layout record (and its picture): small or hidden targets, small
    or faint texts, texts not drawn, shared information not facing both players in table
    orientation, a player's text facing away or on the other half."""
    found: list[str] = []
    size = record["size"]
    assert isinstance(size, list)
    height = int(size[1])
    admin = record.get("admin_area")
    admin_rect = pygame.Rect(admin) if isinstance(admin, list) else None
    for target in record["targets"]:  # type: ignore[attr-defined]
        rect = pygame.Rect(target["rect"])
        if min(rect.w, rect.h) < MIN_TARGET:
            found.append(f"target {target['what']} is {rect.w}x{rect.h} px")
        if admin_rect is not None and rect.colliderect(admin_rect):
            found.append(f"target {target['what']} overlaps the admin area")
    facings: dict[str, set[int]] = {}
    for item in record["texts"]:  # type: ignore[attr-defined]
        rect = pygame.Rect(item["rect"])
        label = repr(item["text"][:24])
        if item["px"] < MIN_TEXT:
            found.append(f"text {label} is {item['px']} px")
        need = 4.5 if item["px"] < 24 else 3.0
        if contrast(item["fg"], item["bg"]) < need:
            found.append(f"text {label} has a contrast of {contrast(item['fg'], item['bg']):.2f}")
        area = rect.clip(image.get_rect())
        if area.w and area.h:
            colours = {tuple(image.get_at((x, y))) for x in range(area.x, area.right, max(1, area.w // 12))
                       for y in range(area.y, area.bottom, max(1, area.h // 6))}
            if len(colours) < 2:
                found.append(f"text {label} is not drawn")
        if record["orientation"] == "table":
            if item["role"] in SHARED_ROLES:
                facings.setdefault(item["role"], set()).add(item["facing"])
            seat = item["seat"]
            if seat in (0, 1):
                middle = rect.centery
                if item["facing"] != seat or (seat == 0 and middle < height / 2) or (seat == 1 and middle > height / 2):
                    found.append(f"text {label} for player {seat + 1} faces {item['facing']} at y={middle}")
    for role, seen in facings.items():
        if seen != {0, 1}:
            found.append(f"shared {role} faces only {sorted(seen)}")
    return found + covered(record)


def covered(record: dict[str, object]) -> list[str]:
    """Texts that cover a tile, a lit point, a score badge or another text; badges over lit points."""
    found: list[str] = []
    texts = [(pygame.Rect(t["rect"]), repr(t["text"][:24])) for t in record["texts"]]  # type: ignore[attr-defined]
    board = [(pygame.Rect(b["rect"]), b["what"]) for b in record.get("board", [])]  # type: ignore[attr-defined]
    shown = [(rect, what) for rect, what in board if what != "bar"]
    badges = [rect.inflate(2, 2) for rect, what in board if what == "badge"]
    for i, (rect, label) in enumerate(texts):
        if any(badge.contains(rect) for badge in badges):
            continue  # a badge's own number (the badge itself is checked against the lit points)
        for other, what in shown:
            if rect.colliderect(other):
                found.append(f"text {label} covers a {what} at {tuple(other)}")
        for other, other_label in texts[i + 1:]:
            if rect.colliderect(other):
                found.append(f"text {label} overlaps text {other_label}")
    for badge, what in board:
        if what == "badge":
            found += [f"a badge at {tuple(badge)} covers a lit point" for lit, w in board
                      if w == "lit" and badge.colliderect(lit)]
        if what == "bar":
            found += [f"a message bar at {tuple(badge)} covers a {w} at {tuple(other)}" for other, w in board
                      if w in ("tile", "lit", "badge") and badge.colliderect(other)]
    return found
