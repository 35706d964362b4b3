"""Shared test set-up: headless SDL for every test, and the ``slow`` marker's option."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# the app keeps its made sound cues in $XDG_CACHE_HOME: the tests' own folder, never the tester's ~/.cache
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="spectacular-bid-test-cache-")
