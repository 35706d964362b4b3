"""``python -m club``: see ``club.cli``."""

import sys

from club.cli import main

sys.exit(main())
