"""``python -m kiosk.club``: see ``kiosk.club.cli``."""

import sys

from kiosk.club.cli import main

sys.exit(main())
