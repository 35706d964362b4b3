"""The auction after a domino: the standing bid, the jockey and the 15-point credit, what accepting
costs; Decline or Accept, Bid with its stepper (-5 / +5) and the quick bids (+25, All I can afford)
— a card turned toward the player to act (on their half of the board in table orientation)."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from engine import AuctionView
from kiosk.i18n import Translator
from kiosk.table.intents import (
    Accept,
    CancelAllIn,
    ConfirmAllIn,
    Decline,
    Intent,
    MaxBid,
    OpenHelp,
    PlaceBid,
    Resign,
    StepBid,
)
from kiosk.table.session import GameSession, guest_name
from kiosk.ui import theme
from kiosk.ui.scenes.fitted import IMPORTANT, MIN_TARGET, Card, CardButton, FlowLine, flow, row
from kiosk.ui.scenes.table import Button, TableScene
from kiosk.ui.widgets import Hotspot

STEP_SHARES = (1.0, 1.0, 1.0, 2.4)
"""-5, +5, +25 and "All I can afford" side by side: the long label gets more room."""


def auction_lines(t: Translator, auction: AuctionView, player: int, draft: int, balance: int,
                  who: Callable[[int], str] = guest_name) -> list[FlowLine]:
    """What the player to act reads: the question, the standing bid or the jockey, what their bid
    would cost (and that paying their whole balance loses at once), or that they cannot bid."""
    other = 1 - player
    if auction.bid is None:
        head = t._("{player}: bid for the opening, or decline", player=who(player))
        standing = t._("{jockey} dominoed and is the jockey (15-point credit on their own bid)",
                       jockey=who(auction.jockey))
    else:
        head = t._("{player}: accept {bid} or raise", player=who(player), bid=auction.bid)
        cost = auction.cost(other, auction.bid)
        standing = t.n_("{player} bids {bid}: accepting makes them pay {n} and open",
                        "{player} bids {bid}: accepting makes them pay {n} and open", cost,
                        player=who(other), bid=auction.bid)
    # the facts the player acts on are never drawn under IMPORTANT px; the heading (the buttons say it too)
    # gives way first when the card is small
    lines = [FlowLine(head, theme.ACCENT, heading=True, keep=0), FlowLine(standing, theme.TEXT, keep=2, floor=IMPORTANT)]
    if auction.max_bid[player] >= auction.min_bid:
        my_cost = auction.cost(player, draft)
        lines.append(FlowLine(t.n_("Your bid of {bid} would cost you {n} if accepted",
                                   "Your bid of {bid} would cost you {n} if accepted", my_cost, bid=draft),
                              theme.TEXT_DIM, keep=3, floor=IMPORTANT))
        if my_cost >= balance:
            lines.append(FlowLine(t._("Accepted, it takes all your points: you lose the match"),
                                  theme.DANGER_TEXT, keep=4, floor=IMPORTANT))
    elif auction.bid is None:
        lines.append(FlowLine(t._("You cannot afford a bid: decline"), theme.DANGER_TEXT, keep=3, floor=IMPORTANT))
    else:
        lines.append(FlowLine(t._("You cannot afford a bid: accept"), theme.DANGER_TEXT, keep=3, floor=IMPORTANT))
    return lines


class Auction(TableScene):
    """Bidding for the opening; the clock of the player to act runs."""

    offers = (Decline, Accept, StepBid, MaxBid, PlaceBid, ConfirmAllIn, CancelAllIn, Resign, OpenHelp)
    board_shown = False
    messages_above = True

    def draw_middle(self, surface: pygame.Surface, session: GameSession, spots: list[Hotspot]) -> None:
        m = session.match
        auction = m.auction()
        player = m.to_act
        assert auction is not None and player is not None
        context = self.context
        if not context.seat(player).person:  # nobody reads the computer's card: the person's
            return  # half says that it is thinking
        t = context.t_for(player)
        draft = session.shown_bid()  # what RAISE bids too
        lines = auction_lines(t, auction, player, draft, m.balances[player], self.context.controller.player_name)
        top = max(auction.max_bid[player], auction.min_bid)
        theirs = not context.seat(player).person  # the computer's card takes no tap
        can_bid = auction.max_bid[player] >= auction.min_bid and not theirs
        safe = session.safe_top()
        first: tuple[str, Intent, bool] = (t._("Decline"), Decline(player), False) if auction.bid is None else \
            (t._("Accept {bid}", bid=auction.bid), Accept(player), True)
        steps = [("-5", StepBid(-1), draft > auction.min_bid), ("+5", StepBid(1), draft < top),
                 ("+25", StepBid(5), draft < top), (t._("All I can afford"), MaxBid(), safe is not None and draft != safe)]
        board = context.regions.board
        if self.table_mode:
            rect = self.halves()[player].inflate(-board.width // 40, 0)
            self._carded.add(player)  # this player's messages go into the card
            lines[1:1] = [FlowLine(self._said(message, t), theme.DANGER_TEXT if message.kind == "refused"
                                   else theme.TEXT, keep=5 if message.kind == "refused" else 1)
                             for message in self._live if message.player in (None, player)]
        else:
            room = max(20, min(board.height // 9, (board.height - int(board.height * 0.74) - 6) // 2))
            room = room * len(self._live) + 6 if self._live else 0  # the messages go below the card
            rect = pygame.Rect(board.x, board.y + 2, board.width, board.height - room - 4)
        card = Card(rect, context.facing(player), player)
        r = card.surface.get_rect()
        pad = max(6, r.height // 30)
        if session.all_in is not None and not theirs:
            self._all_in(card, t, player, session.all_in)
            spots += card.finish(surface)
            return
        if theirs:  # its lines only: nothing on the computer's side takes a tap
            flow(card.surface, lines, r.inflate(-4 * pad, -2 * pad), max(16, min(context.size[1] // 17, r.height // 4)))
            spots += card.finish(surface)
            return
        wide = self.table_mode and r.width > 3 * r.height  # text beside the buttons, not above them
        bh = max(MIN_TARGET, min((r.height - 3 * pad) // 2 if wide else r.height // 5, 72))
        if wide:
            text_w = r.width // 2
            area = pygame.Rect(r.x + text_w + 2 * pad, r.y + pad, r.width - text_w - 3 * pad, r.height - 2 * pad)
            text_box = pygame.Rect(r.x + pad, r.y + pad, text_w, r.height - 2 * pad)
        else:
            area = pygame.Rect(r.x + pad, r.bottom - pad - (2 * bh + pad if can_bid else bh), r.width - 2 * pad,
                               2 * bh + pad if can_bid else bh)
            text_box = pygame.Rect(r.x + 2 * pad, r.y + pad, r.width - 4 * pad, area.y - r.y - 2 * pad)
        flow(card.surface, lines, text_box, max(16, min(context.size[1] // 17, text_box.height // 4)))
        if can_bid:
            choose = row(area.x, area.y + (area.height - 2 * bh - pad) // 2 if wide else area.y, area.width, bh,
                         (1.0, 1.3), pad)
            card.button(CardButton(choose[0], *first))
            card.button(CardButton(choose[1], t._("Bid {bid}", bid=draft), PlaceBid(player), auction.bid is None))
            for b, (label, intent, enabled) in zip(row(area.x, choose[0].bottom + pad, area.width, bh, STEP_SHARES, pad),
                                                   steps, strict=True):
                card.button(CardButton(b, label, intent, enabled=enabled))
        else:
            only = pygame.Rect(0, 0, min(area.width, max(area.width // 2, 200)), bh)
            only.center = area.center
            card.button(CardButton(only, *first))
        spots += card.finish(surface)

    def _all_in(self, card: Card, t: Translator, player: int, bid: int) -> None:
        """The question before a bid that, accepted, takes the whole balance: in large type; "No" lit,
        larger and on Bid's side, "Yes" plain at the other end."""
        r = card.surface.get_rect()
        pad = max(6, r.height // 30)
        bh = max(MIN_TARGET, min(72, r.height // 3))
        lines = [FlowLine(t._("Bid {bid}? Accepted, it takes all your points: you lose the match.", bid=bid),
                          theme.DANGER_TEXT, heading=True, keep=3)]
        if r.width > 3 * r.height:  # a half of the board: the question left, the answers right
            text_box = pygame.Rect(r.x + 2 * pad, r.y + pad, r.width * 3 // 5 - 3 * pad, r.height - 2 * pad)
            answers = row(text_box.right + 2 * pad, r.centery - bh // 2, r.right - text_box.right - 3 * pad, bh,
                          (1.0, 1.4), 3 * pad)
        else:
            text_box = pygame.Rect(r.x + 2 * pad, r.y + pad, r.width - 4 * pad, r.height - 3 * pad - bh)
            answers = row(r.x + pad, r.bottom - pad - bh, r.width - 2 * pad, bh, (1.0, 1.4), 3 * pad)
        flow(card.surface, lines, text_box, max(22, min(r.height // 4, 40)))
        card.button(CardButton(answers[0], t._("Yes, bid {bid}", bid=bid), ConfirmAllIn(player)))
        auction = self.context.session.match.auction()
        lower = auction is not None and bid > auction.min_bid  # else no smaller bid is allowed: a plain No
        card.button(CardButton(answers[1], t._("No, bid less") if lower else t._("No"), CancelAllIn(player), True))

    def draw_actions(self, panel: pygame.Surface, big: pygame.Rect, small: pygame.Rect, session: GameSession,
                     player: int, t: Translator, button: Button) -> None:
        button(small, t._("Resign"), Resign(player))
