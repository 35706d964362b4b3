"""Right-to-left names drawn in reading order (issue 26, finding 11)."""

from __future__ import annotations

import pygame

from kiosk.ui import theme
from kiosk.ui.bidi import has_rtl, visual_order


def test_left_to_right_lines_are_unchanged() -> None:
    for line in ("Player 1 wins", "김민준 must open", "Гравець 2 (120 s)", ""):
        assert visual_order(line) == line and not has_rtl(line)


def test_a_hebrew_name_is_drawn_reversed_inside_an_english_line() -> None:
    assert visual_order("שרה wins") == "הרש wins"
    assert visual_order("Ann vs שרה כהן wins") == "Ann vs ןהכ הרש wins"  # the space inside the name moves with it
    # a number after a right-to-left word joins its run (UAX #9 rule N1), as a browser shows it
    assert visual_order("Ann vs שרה כהן: 25") == "Ann vs 25 :ןהכ הרש"


def test_digits_inside_a_right_to_left_run_keep_their_order_and_brackets_mirror() -> None:
    assert visual_order("דוד 12 שרה") == "הרש 12 דוד"
    assert visual_order("(דוד)") == "(דוד)"[0] + "דוד"[::-1] + ")"
    assert visual_order("علي wins") == "يلع wins"


def test_the_renderer_draws_the_visual_order() -> None:
    pygame.font.init()
    logical = theme.render("שרה wins", 24)
    visual = theme.font(24, False, "הרש wins").render("הרש wins", True, theme.TEXT)
    assert logical.get_size() == visual.get_size()
    assert pygame.image.tobytes(logical, "RGBA") == pygame.image.tobytes(visual, "RGBA")
