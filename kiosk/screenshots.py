"""``python -m kiosk.screenshots``: the name under which the shared layout audit
(``../shared/tools/layout_audit.py``) draws every screen; the tool itself lives in
``kiosk.devtools.screenshots`` (imported only when run, so the kiosk never loads it)."""

from __future__ import annotations

import sys

if __name__ == "__main__":
    from kiosk.devtools.screenshots import main

    sys.exit(main())
