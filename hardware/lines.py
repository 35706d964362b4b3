"""Splitting a byte stream into protocol lines, dropping over-long ones."""

from __future__ import annotations

from .protocol import MAX_LINE


class LineSplitter:
    """Turns chunks of bytes into complete lines (without their ``\\n``).

    A line longer than ``max_line`` bytes is dropped whole, counted in
    :attr:`too_long`, and the bytes up to its terminator are skipped, so the
    buffer never grows past ``max_line`` bytes.
    """

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self._buffer = bytearray()
        self._skipping = False
        self.too_long = 0

    def feed(self, data: bytes) -> list[bytes]:
        """Add ``data`` and return every line it completed, in order."""
        pieces = data.split(b"\n")
        lines: list[bytes] = []
        for index, piece in enumerate(pieces):
            complete = index < len(pieces) - 1
            if self._skipping:
                if complete:
                    self._skipping = False
                continue
            if len(self._buffer) + len(piece) > self.max_line + 1:  # +1 for a CR
                self.too_long += 1
                self._buffer.clear()
                self._skipping = not complete
                continue
            self._buffer += piece
            if complete:
                lines.append(bytes(self._buffer))
                self._buffer.clear()
        return lines

    def reset(self) -> None:
        """Forget any partial line (after a reconnect)."""
        self._buffer.clear()
        self._skipping = False
