"""In a practice match the computer's seat is called by the computer's name ("Computer (Expert)")
in every text of the table, not "Player 2": a translator that puts the name where its language
writes the seat's label."""

from __future__ import annotations

from typing import Any

from kiosk.i18n import Translator
from kiosk.table.computer import computer_name


class NamedSeat(Translator):
    """``base``'s language with seat ``seat`` (0 or 1) named by the computer's name at ``level``."""

    def __init__(self, base: Translator, seat: int, level: int) -> None:
        super().__init__(base.language, base.catalog)
        plain = Translator(base.language, base.catalog)
        label = plain._("Player {number}", number=seat + 1)
        name = plain(computer_name(level))
        self.swaps = [(label, name)]
        if label[:1].isupper():  # "Auction: player 2 bids first" in the middle of a sentence
            self.swaps.append((label[:1].lower() + label[1:], name))

    def _named(self, value: str) -> str:
        for label, name in self.swaps:
            value = value.replace(label, name)
        return value

    def _(self, msgid: str, **params: Any) -> str:
        return self._named(super()._(msgid, **params))

    def lookup(self, msgid: str, **params: Any) -> str:
        return self._named(super().lookup(msgid, **params))

    def n_(self, singular: str, plural: str, n: int, **params: Any) -> str:
        return self._named(super().n_(singular, plural, n, **params))

    def __call__(self, value: str) -> str:
        return self._named(super().__call__(value))
