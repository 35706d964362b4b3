"""The unit grid the board layout searches on (``kiosk.ui.board.geometry``): directions, boxes,
and the grid of one tile size with its solid cells and the arms' corridors.

A unit is a quarter of the tile's long side: a tile is 4 x 2 units. Rows are bit masks, so a
collision test is a few integer operations per row (the layout's search runs thousands of them).
"""

from __future__ import annotations

Dir = tuple[int, int]
"""A unit step on the screen: (1, 0) right, (0, 1) down, (-1, 0) left, (0, -1) up."""
Box = tuple[int, int, int, int]
"""x0, y0, x1, y1 in grid units, half open."""

RIGHT: Dir = (1, 0)
DOWN: Dir = (0, 1)
LEFT: Dir = (-1, 0)
UP: Dir = (0, -1)


def cw(d: Dir) -> Dir:
    """``d`` turned a quarter clockwise on the screen (right -> down -> left -> up)."""
    return (-d[1], d[0])


def ccw(d: Dir) -> Dir:
    """``d`` turned a quarter counter-clockwise on the screen."""
    return (d[1], -d[0])


def neg(d: Dir) -> Dir:
    """The opposite direction."""
    return (-d[0], -d[1])


def unit_box(hx: int, hy: int, d: Dir, length: int, half_width: int) -> Box:
    """The box running ``length`` units from (hx, hy) along ``d``, ``half_width`` either side."""
    dx, dy = d
    if dx:
        x0, x1 = (hx, hx + length) if dx > 0 else (hx - length, hx)
        return (x0, hy - half_width, x1, hy + half_width)
    y0, y1 = (hy, hy + length) if dy > 0 else (hy - length, hy)
    return (hx - half_width, y0, hx + half_width, y1)


def overlap(a: Box, b: Box) -> bool:
    """True if two boxes share area (touching edges do not count)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


ARMS = 4
"""Arms that own corridors: 0 and 1 leave the opening tile, 2 and 3 are the spinner's branches."""


class Grid:
    """The area in units for one tile size.

    ``solid`` holds one bit mask per grid row of the cells that tiles and targets cover;
    ``corridors[k]`` the cells of the other arms' corridors, which arm ``k`` keeps out of.
    """

    __slots__ = ("boxes", "corridors", "hu", "long_side", "reserved", "solid", "unit", "wide", "wu")

    def __init__(self, w: int, h: int, long_side: int) -> None:
        self.long_side = long_side
        self.unit = long_side / 4
        self.wu = int(w // self.unit)
        self.hu = int(h // self.unit)
        self.wide = self.wu >= self.hu
        """True when the area is at least as wide as it is tall."""
        self.solid = [0] * self.hu
        self.corridors = [[0] * self.hu for _ in range(ARMS)]
        self.boxes: list[Box] = []
        self.reserved: list[tuple[int, int, Dir, int]] = []
        """Every ``reserve`` call (x, y, direction, owner), to lay the corridors again on a larger grid."""

    def blank(self) -> Grid:
        """An empty grid of the same size."""
        grid = Grid(0, 0, self.long_side)
        grid.wu, grid.hu, grid.wide = self.wu, self.hu, self.wide
        grid.solid = [0] * self.hu
        grid.corridors = [[0] * self.hu for _ in range(ARMS)]
        return grid

    def free(self, box: Box, owner: int | None) -> bool:
        """True if ``box`` is inside the grid, clear of solid cells and of others' corridors.

        ``owner`` None ignores corridors (tap targets may lie in them).
        """
        x0, y0, x1, y1 = box
        if x0 < 0 or y0 < 0 or x1 > self.wu or y1 > self.hu:
            return False
        mask = ((1 << (x1 - x0)) - 1) << x0
        solid = self.solid
        if owner is None:
            for y in range(y0, y1):  # noqa: SIM110 - the search's innermost loop: a plain loop is faster than all()
                if solid[y] & mask:
                    return False
            return True
        others = self.corridors[owner]
        for y in range(y0, y1):  # noqa: SIM110 - as above
            if (solid[y] | others[y]) & mask:
                return False
        return True

    def snapshot(self) -> tuple[list[int], list[list[int]], int, int]:
        """The grid's state, for ``restore`` when a search backs out of a choice.

        Cheap: ``fill`` and ``reserve`` replace the row lists instead of changing them.
        """
        return self.solid, self.corridors, len(self.boxes), len(self.reserved)

    def restore(self, state: tuple[list[int], list[list[int]], int, int]) -> None:
        """Go back to a ``snapshot``."""
        self.solid, self.corridors, boxes, reserved = state
        del self.boxes[boxes:]
        del self.reserved[reserved:]

    def fill(self, box: Box) -> None:
        """Mark ``box`` solid."""
        x0, y0, x1, y1 = box
        mask = ((1 << (x1 - x0)) - 1) << x0
        solid = self.solid = list(self.solid)
        for y in range(y0, y1):
            solid[y] |= mask
        self.boxes.append(box)

    def reserve(self, hx: int, hy: int, d: Dir, owner: int) -> None:
        """Keep the strip from (hx, hy) along ``d`` to the first solid box or the edge for ``owner``.

        The strip is as wide as a crosswise double; other arms treat it as blocked, so that the
        arm that will grow there later still finds room.
        """
        self.reserved.append((hx, hy, d, owner))
        limit = {RIGHT: self.wu - hx, LEFT: hx, DOWN: self.hu - hy, UP: hy}[d]
        strip = unit_box(hx, hy, d, max(limit, 0), 2)
        for b in self.boxes:
            if overlap(b, strip):
                gap = {RIGHT: b[0] - hx, LEFT: hx - b[2], DOWN: b[1] - hy, UP: hy - b[3]}[d]
                limit = min(limit, max(gap, 0))
        if limit <= 0:
            return
        x0, y0, x1, y1 = unit_box(hx, hy, d, limit, 2)
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, self.wu), min(y1, self.hu)
        if x0 >= x1 or y0 >= y1:
            return
        mask = ((1 << (x1 - x0)) - 1) << x0
        self.corridors = [list(rows) for rows in self.corridors]
        for arm in range(ARMS):
            if arm != owner:
                rows = self.corridors[arm]
                for y in range(y0, y1):
                    rows[y] |= mask
