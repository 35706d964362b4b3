"""The rules help shown on the kiosk, in the project's own words (translations: issue 7)."""

RULES_HELP = """\
Points: each player starts with 150 points (30 chips of 5). Points only move between the two players; a payment is capped at what the payer has, and whoever reaches 0 loses at once.
Deal: every round all 28 tiles are shuffled, 7 to each player, 14 face down in the boneyard.
Opening: in the first round and after a blocked round the highest double opens (no double: the heaviest tile). After a domino there is an auction for the opening.
Connecting: match equal numbers at an open end. The first double is the spinner: once both its line ends are covered, its two sides open as well.
Counting: after every tile add the open ends (a double at an end counts both halves; the spinner counts once; an open spinner side counts nothing). A multiple of 5 moves that many points from the opponent to you.
Drawing: only when nothing fits, one tile at a time; a drawn tile that fits must be played at once. Pass only when nothing fits and the boneyard is empty (the kiosk passes for you).
Round end: playing your last tile (domino) makes you the jockey. If both pass, the lighter hand receives the heavier hand's pips rounded to 5.
Auction: the non-jockey declines (the jockey opens free) or bids 15 or more; then accept or raise by 5. The winner pays and opens with any tile; the jockey's own winning bid costs 15 less.
Clock: a 120 s bank for the whole match plus 10 s free at each decision. Clocks stop between rounds and until the next player reveals. Reading this help does not stop the clock.
"""
