"""Every screen and overlay of the kiosk, one module each; ``kiosk.ui.stage`` stacks them.

A new screen goes here: a module with a ``Scene`` subclass (``base.py``) whose ``draw`` paints it
and returns hotspots carrying intents (``kiosk/table/intents.py``), whose ``offers`` lists the intents
it takes; the controller (``kiosk/table/controller.py``) carries them out; ``Stage.stack`` says when
the scene is on screen.

==============  ======================================================================
home            New match, leaderboard, rules, settings, languages
settings        what the kiosk runs with, every warning
help            the rules (over home, settings, or the table's middle)
banner          the first warning (or that results are not being saved) across the top
saving          over a match: results are not being saved, for both players
table           the base of the match's scenes: panels, sidebar, board, messages
ready           before round 1 (Start, languages, who plays)
auction         bidding for the opening
handover        a shared screen between turns
play            tiles and points
settlement      between rounds
match_over      the result, Rematch, Home (and Review)
review          after a match: each player's costliest decisions and luck, on their half
resign          "Resign the match?" in a player's panel
flight          chips flying after a transfer
picker          who plays in a seat
keyboard        a new player's name
leaderboard     named players by rating
history         a player's matches
replay          a stored match step by step, auto-play, jumps to a round
scoresheet      each round's result and transfers (over the table's middle)
manage          the owner's player management: rename, delete, merge (behind the PIN)
keypad          the owner PIN keypad, "Stop the kiosk?"
settings_edit   the owner's settings editor
==============  ======================================================================
"""
