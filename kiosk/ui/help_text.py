"""The rules help shown on the kiosk, in the project's own words, as message ids for the catalogs.

The help is a list of sections, each a heading and blocks: paragraphs (``Para``) and rows of
worked layouts (``Figures``) that the screen draws with the kiosk's own board renderer, with the
ends that count marked and the score. ``kiosk.ui.help`` splits it into pages that fit the screen.
The translations live in the catalogs (``kiosk/locale``) like every other text.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Layout, Point, Slot, Tile
from kiosk.i18n import N_


@dataclass(frozen=True, slots=True)
class Para:
    """A paragraph (a message id)."""

    msgid: str


@dataclass(frozen=True, slots=True)
class Figure:
    """A worked layout: tiles placed in order (``at`` None for the opening tile) and a title."""

    title: str
    """A message id, with ``{tile}`` and ``{other}`` filled in from ``params``."""
    placements: tuple[tuple[str, tuple[str, str] | None], ...]
    params: tuple[tuple[str, str], ...] = ()
    width: int = 1
    """Its share of the row's width (a long chain gets more)."""

    def layout(self) -> Layout:
        """The engine's layout after these placements."""
        layout = Layout()
        for tile, at in self.placements:
            layout.place(Tile.parse(tile), None if at is None else Point(Tile.parse(at[0]), Slot(at[1])))
        return layout


@dataclass(frozen=True, slots=True)
class Figures:
    """Worked layouts drawn side by side."""

    figures: tuple[Figure, ...]


@dataclass(frozen=True, slots=True)
class Section:
    heading: str
    blocks: tuple[Para | Figures, ...]


@dataclass(frozen=True, slots=True)
class HelpNumbers:
    """The kiosk's own match settings, which the help's numbers follow (the owner may set 60 points)."""

    balance: int = 150
    bank_seconds: float = 120
    delay_seconds: float = 10

    def params(self) -> dict[str, object]:
        """The help's placeholders: ``{balance}``, ``{chips}``, ``{total}``, ``{more}``, ``{less}``, ``{bank}``,
        ``{delay}``, ``{quick}`` (a decision within the free seconds) and ``{slow}`` (3 s beyond them)."""
        delay = format(self.delay_seconds, "g")
        return {"balance": self.balance, "chips": self.balance // 5, "total": 2 * self.balance,
                "more": self.balance + 15, "less": max(0, self.balance - 15), "bank": format(self.bank_seconds, "g"),
                "delay": delay, "quick": format(max(0.0, self.delay_seconds - 2), "g"),
                "slow": format(self.delay_seconds + 3, "g")}


STANDARD = HelpNumbers()
"""The standard match (150 points, 120 s bank, 10 s delay)."""

TITLE = N_("How to play")

OPENING = N_("Opening [{tile}]")
ON_LOW = N_("[{tile}] on the low end of [{other}]")
ON_HIGH = N_("[{tile}] on the high end of [{other}]")
SPINNER_OPEN = N_("Spinner with both sides open")

SPINNER_CHAIN = (
    ("1|4", None),
    ("1|1", ("1|4", "low")),
    ("4|4", ("1|4", "high")),
    ("3|4", ("4|4", "lineB")),
    ("1|2", ("1|1", "lineB")),
)
"""The seeds' chain up to [1|2] on [1|1]'s second line end: both spinner sides open, 2 + 3 = 5."""

FIGURES = (
    Figure(OPENING, (("1|4", None),), (("tile", "1|4"),)),
    Figure(ON_LOW, (("1|4", None), ("1|1", ("1|4", "low"))), (("tile", "1|1"), ("other", "1|4"))),
    Figure(ON_HIGH, (("3|6", None), ("6|6", ("3|6", "high"))), (("tile", "6|6"), ("other", "3|6"))),
    Figure(OPENING, (("0|0", None),), (("tile", "0|0"),)),
    Figure(OPENING, (("2|2", None),), (("tile", "2|2"),)),
    Figure(SPINNER_OPEN, SPINNER_CHAIN, width=2),
)

SECTIONS: tuple[Section, ...] = (
    Section(N_("The game"), (
        Para(N_("Spectacular Bid is a Fives domino duel for two players, with an auction for the opening and a "
                "match clock. Each player starts with {balance} points, shown as {chips} chips of 5. You win when the other "
                "player has no points or no time left.")),
    )),
    Section(N_("Chips and transfers"), (
        Para(N_("Scoring never creates points: every score, payment and settlement moves points from one player "
                "to the other, so together the two always hold {total}.")),
        Para(N_("Points are not divided by five: an end count of 15 moves 15 points (three chips), and {balance}–{balance} "
                "becomes {more}–{less}.")),
        Para(N_("Nobody pays more than they have: a player with 5 points left who owes 20 pays 5. A player whose "
                "balance reaches 0 loses at once.")),
    )),
    Section(N_("Deal and opening"), (
        Para(N_("Every round uses the whole double-six set, 28 tiles from [0|0] to [6|6], shuffled anew: 7 to "
                "each player and 14 face down in the boneyard. Keep your tiles hidden from the other player.")),
        Para(N_("In the first round, and after a blocked round, the holder of the highest double must open with "
                "it. If neither player has a double, the tile with the most pips opens; between equal totals, the "
                "one with the bigger half.")),
        Para(N_("After a domino the opening is auctioned instead (see The auction).")),
    )),
    Section(N_("Connecting"), (
        Para(N_("Lay a tile against an open end showing the same number. The turn then passes to the other "
                "player, even after a double or a score.")),
        Para(N_("The first double of the round is the spinner (orange outline). It grows in a line both ways; "
                "once both line ends are covered, its two sides open as well. Later doubles lie across the line "
                "and never branch.")),
    )),
    Section(N_("Counting with the spinner"), (
        Para(N_("After every tile, the opening one included, add up the open ends. A double lying at an end "
                "counts both halves. The spinner counts its two halves once while one of its line ends is "
                "uncovered; its open sides count nothing until a tile is laid on them.")),
        Para(N_("If the total is a multiple of 5 (5, 10, 15 ...), the player who laid the tile takes that many "
                "points from the other. A total of 0, or any other total, moves nothing.")),
        Para(N_("In the pictures a filled badge marks an end that counts, with the number it adds; a hollow ring "
                "marks an open place that adds nothing.")),
        Figures(FIGURES[:3]),
        Figures(FIGURES[3:]),
    )),
    Section(N_("Drawing and passing"), (
        Para(N_("If no tile in your hand fits, draw from the boneyard one tile at a time until one fits. A drawn "
                "tile that fits must be played straight away, at any end it fits: no other tile and no further "
                "draw. Drawing and playing are one turn on the same clock.")),
        Para(N_("You pass only when nothing fits and the boneyard is empty. The kiosk passes for you at once, "
                "without a hand-over, and tells both players.")),
    )),
    Section(N_("Domino and blocked rounds"), (
        Para(N_("Playing your last tile is a domino: the round ends after that tile's ordinary count, with "
                "nothing extra for the tiles left in the other hand. You become the jockey, and the next opening "
                "is auctioned.")),
        Para(N_("If both players have to pass in a row, the round is blocked. The player with fewer pips in hand "
                "receives the other hand's whole pip total rounded to the nearest 5, without subtracting their "
                "own: hands of 4 and 18 pay the lighter hand 20, and 17 would round to 15. Equal totals pay "
                "nothing. The next round opens by rank, with no jockey.")),
    )),
    Section(N_("The auction"), (
        Para(N_("After a domino the jockey's opponent speaks first: decline, and the jockey opens for free, or "
                "bid at least 15. Then each player in turn accepts the standing bid or raises it by at least 5; "
                "every bid is a multiple of 5.")),
        Para(N_("When a bid is accepted, the bidder pays it to the other player and opens with any tile. The "
                "jockey's own winning bid costs 15 less, never below 0: an accepted jockey bid of 20 costs 5, and "
                "the other player receives those 5.")),
        Para(N_("The 15-point credit belongs to this auction only and is never paid out or kept. Nobody can bid "
                "more than they can pay, and paying one's whole balance loses the match before the opening. A "
                "player who cannot afford the smallest bid must decline.")),
        Para(N_("On the kiosk RAISE bids the smallest amount allowed, ACCEPT accepts and DECLINE declines. On "
                "the screen, -5 and +5 step the bid, +25 adds 25 and All I can afford goes to the most you can "
                "pay; Bid then places it.")),
    )),
    Section(N_("The clock"), (
        Para(N_("Each player has a bank of {bank} seconds for the whole match, plus {delay} free seconds at every new "
                "decision and at the opening turn. The bank runs only once those seconds are used up, and it is "
                "never refilled, not even between rounds. Drawing within a turn brings no new free seconds.")),
        Para(N_("A decision made in {quick} seconds costs no bank; one made in {slow} seconds costs 3 seconds.")),
        Para(N_("Under each player's balance is their bank, in minutes and seconds. Beside the running clock, "
                "+9s (for example) counts down the free seconds of the decision; when they are used up, the bank "
                "starts to run and turns red below 20 seconds.")),
        Para(N_("A raise hands the clock to the other player; accepting or declining starts the opener's clock. "
                "Clocks stop between rounds until Start or Continue, and on a shared screen until the next player "
                "reveals their tiles. Reading this help does not stop a running clock. Whoever runs out of time "
                "loses.")),
    )),
    Section(N_("Digital play"), (
        Para(N_("The kiosk counts, moves the chips and runs the clocks. A legal play or a required pass ends the "
                "turn by itself: there is no clock button. A request the rules do not allow changes nothing, and "
                "the kiosk says why. There are no muggins claims, penalties or referees.")),
        Para(N_("Tap a tile to pick it up, then tap a lit place on the board; a tile that fits only one place "
                "goes there on a second tap. Tap the boneyard to draw.")),
        Para(N_("The last tile placed is outlined on the board with what it scored. On a shared screen, the "
                "hand-over card tells you what the other player did since your last turn: tiles drawn, tiles "
                "played and their scores.")),
        Para(N_("When the tiles on the board leave an open end no room, the next tile there is laid in free "
                "room nearby, joined to that end by a line.")),
        Para(N_("If the kiosk cannot prove its own timing, for example after a restart while a clock was "
                "running, the match is stopped without a result.")),
        Para(N_("Spectacular Bid is a game by Christopher Haviland; this kiosk plays its automatic digital "
                "version.")),
    )),
)
