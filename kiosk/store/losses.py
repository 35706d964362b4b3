"""A journal that lost acknowledged rows: the match that was in progress ends unrated, never from the
rolled-back position.

When opening found fewer commits in the file than its mark says were on disk before the stop
(``Database.lost``: a deleted, cut-short or damaged write-ahead log, an older backup restored), the
unfinished match's last rows may be gone, and with them the commands and clock readings after the
position the file still holds. Resuming from there would show that older position as the match's
state and could charge the downtime from it (a loss on time) or let the match go on to a rated
result built on lost data. As RULES.md §7 does for timing that cannot be proven, the match is
aborted without a result instead, nothing charged, and the message says why. ``resume.resume``
calls ``after_loss`` first.
"""

from __future__ import annotations

import json

from engine import Event, Match
from kiosk.i18n import N_, T, Text
from kiosk.store.database import LostCommits
from kiosk.store.journal import Journal

LOST_ROWS = N_("the journal lost the last commits of this match (commits lost: {commits}), so its position and "
               "timing cannot be proven")
"""The aborted match's reason (a message template; ``commits`` fills it)."""


def lost_commits(journal: Journal) -> LostCommits | None:
    """What opening the journal found missing, None when nothing acknowledged was lost."""
    return journal.database.lost


def after_loss(snapshot: str, lost: LostCommits, boot_id: str, now_ns: int) -> tuple[Match, list[Event]]:
    """The match saved in ``snapshot`` (the last row the file still holds), aborted unrated at ``now_ns``:
    no clock advanced, no downtime charged. Raises ``SnapshotError`` or ``ValueError`` like a restore."""
    data = json.loads(snapshot)
    if not isinstance(data, dict):
        raise ValueError("the snapshot is not an object")
    match = Match.from_dict(data)
    events = match.abort(now_ns, LOST_ROWS, commits=lost.commits)
    match.boot_id = boot_id
    return match, events


def aborted_match(match: Match, lost: LostCommits, boot_id: str, now_ns: int) -> list[Event]:
    """A match that had not begun in the file (its first rows lost): aborted unrated as well."""
    events = match.abort(now_ns, LOST_ROWS, commits=lost.commits)
    match.boot_id = boot_id
    return events


def loss_message(lost: LostCommits) -> Text:
    """What the players are told."""
    return T("The kiosk restarted, but the journal had lost the last commits of this match (commits lost: "
             "{commits}): its position and timing cannot be proven, so the match is aborted without a result.",
             commits=lost.commits)
