"""Joining a club event on the home screen: the "Join <event>" button's label, and what became of a join
("Anna joined Friday Swiss", the hub's refusal, or that it waits for the club) in a player's language."""

from __future__ import annotations

import pygame

from kiosk.club.joins import Join
from kiosk.i18n import Translator
from kiosk.ui import theme
from kiosk.ui.widgets import text_or_wrap


def join_label(t: Translator, event_name: str) -> str:
    """ "Join Friday Swiss"."""
    return t._("Join {event}", event=event_name)


def join_notice(t: Translator, join: Join, reachable: bool) -> str:
    """What became of ``join`` so far, in ``t``'s language (``reachable``: the hub answered the last round)."""
    name, event = join.player_name, join.event.name
    if join.result is None:
        if reachable:
            return t._("{player} is joining {event}…", player=name, event=event)
        return t._("{player} joins {event}: will be sent when the club is reachable", player=name, event=event)
    if join.result == "joined":
        if join.round is not None and join.round > 1:
            return t._("{player} joined {event}, from round {round}", player=name, event=event, round=join.round)
        return t._("{player} joined {event}", player=name, event=event)
    if join.result == "already-joined":
        return t._("{player} is already in {event}", player=name, event=event)
    if join.reason == "closed":
        return t._("{player} cannot join: {event} takes no more entries", player=name, event=event)
    if join.reason == "withdrawn":
        return t._("{player} withdrew from {event} and cannot join again", player=name, event=event)
    if join.reason == "unknown-event":
        return t._("{player} cannot join: the club no longer has {event}", player=name, event=event)
    return t._("{player} cannot join {event}: the club refused ({why})", player=name, event=event,
               why=join.message or join.reason or "?")


def notice_colour(join: Join) -> tuple[int, int, int]:
    """A join's notice colour: the accent once joined, dim while waiting, the warning's on a refusal."""
    if join.result in ("joined", "already-joined"):
        return theme.ACCENT
    return theme.TEXT_DIM if join.result is None else theme.DANGER_TEXT


def draw_join_notice(surface: pygame.Surface, rect: pygame.Rect, t: Translator, join: Join, reachable: bool) -> None:
    """The notice across the middle 86 % of ``rect`` (wrapped when it is long)."""
    inner = pygame.Rect(rect.x + rect.width * 7 // 100, rect.y, rect.width * 86 // 100, rect.height)
    text_or_wrap(surface, join_notice(t, join, reachable), inner, min(rect.height, 26), notice_colour(join))
