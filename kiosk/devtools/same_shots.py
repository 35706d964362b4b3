"""``python -m kiosk.devtools.same_shots BEFORE AFTER``: whether two folders of screenshots are the same, pixel for pixel.

Compares every PNG of ``BEFORE`` with the file of the same name in ``AFTER`` (sizes and every pixel),
and the layout records beside them (``NAME.json``, byte for byte), and lists those missing on either
side or different; exits 1 if any differ. For a change that must
not change what the kiosk shows: render ``python -m kiosk.devtools.screenshots --out BEFORE`` before
it and ``--out AFTER`` after it.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame


def pixels(path: Path) -> tuple[tuple[int, int], bytes]:
    """A PNG's size and RGBA bytes."""
    surface = pygame.image.load(str(path))
    return surface.get_size(), pygame.image.tobytes(surface, "RGBA")


def differences(before: Path, after: Path) -> list[str]:
    """What differs between the two folders' PNG files (an empty list: all the same)."""
    names = {p.relative_to(before) for p in before.rglob("*.png")}
    others = {p.relative_to(after) for p in after.rglob("*.png")}
    found = [f"missing in {after}: {name}" for name in sorted(names - others)]
    found += [f"missing in {before}: {name}" for name in sorted(others - names)]
    found += [f"differs: {name}" for name in sorted(names & others) if pixels(before / name) != pixels(after / name)]
    for name in sorted(names & others):  # the layout record beside each picture (what the layout audit reads)
        record = name.with_suffix(".json")
        if (before / record).exists() != (after / record).exists() or ((before / record).exists() and
                (before / record).read_bytes() != (after / record).read_bytes()):
            found.append(f"layout record differs: {record}")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    found = differences(args.before, args.after)
    count = sum(1 for _ in args.before.rglob("*.png"))
    for line in found:
        print(line)
    print(f"{count} screenshots compared, {len(found)} differences")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
