"""The auction after a domino: the standing bid, the jockey and the 15-point credit, what accepting
costs; Decline or Accept, and a -5 / Bid / +5 stepper — a card turned toward the player to act."""

from __future__ import annotations

import pygame

from kiosk.i18n import Translator
from kiosk.table.intents import Accept, Decline, Intent, OpenHelp, PlaceBid, Resign, StepBid
from kiosk.table.session import GameSession
from kiosk.ui import theme
from kiosk.ui.scenes.table import Button, Line, TableScene
from kiosk.ui.widgets import Hotspot


class Auction(TableScene):
    """Bidding for the opening; the clock of the player to act runs."""

    offers = (Decline, Accept, StepBid, PlaceBid, Resign, OpenHelp)
    board_shown = False
    messages_above = True

    def draw_middle(self, surface: pygame.Surface, session: GameSession, spots: list[Hotspot]) -> None:
        m = session.match
        auction = m.auction()
        player = m.to_act
        assert auction is not None and player is not None
        t = self.context.t_for(player)
        other = 1 - player
        if auction.bid is None:
            head = t._("Player {number}: bid for the opening, or decline", number=player + 1)
            standing = t._("Player {jockey} dominoed and is the jockey (15-point credit on their own bid)",
                           jockey=auction.jockey + 1)
        else:
            head = t._("Player {number}: accept {bid} or raise", number=player + 1, bid=auction.bid)
            cost = auction.cost(other, auction.bid)
            standing = t.n_("Player {number} bids {bid}: accepting makes them pay {n} and open",
                            "Player {number} bids {bid}: accepting makes them pay {n} and open", cost,
                            number=other + 1, bid=auction.bid)
        draft = session.bid_draft or auction.min_bid
        can_bid = auction.max_bid[player] >= auction.min_bid
        my_cost = auction.cost(player, draft)
        lines: list[Line] = [(head, 3, theme.ACCENT), (standing, 2, theme.TEXT)]
        if can_bid:
            lines.append((t.n_("Your bid of {bid} would cost you {n} if accepted",
                               "Your bid of {bid} would cost you {n} if accepted", my_cost, bid=draft), 2,
                          theme.TEXT_DIM))
        elif auction.bid is None:
            lines.append((t._("You cannot afford a bid: decline"), 2, theme.DANGER))
        else:
            lines.append((t._("You cannot afford a bid: accept"), 2, theme.DANGER))
        first: tuple[str, Intent, bool] = (t._("Decline"), Decline(player), False) if auction.bid is None else \
            (t._("Accept {bid}", bid=auction.bid), Accept(player), True)
        buttons = [first]
        if can_bid:
            buttons += [("-5", StepBid(-1), False), (t._("Bid {bid}", bid=draft), PlaceBid(player), auction.bid is None),
                        ("+5", StepBid(1), False)]
        spots += self.card(surface, lines, player, buttons)

    def draw_actions(self, panel: pygame.Surface, big: pygame.Rect, small: pygame.Rect, session: GameSession,
                     player: int, t: Translator, button: Button) -> None:
        button(small, t._("Resign"), Resign(player))
