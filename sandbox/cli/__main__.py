"""``python -m sandbox.cli``: the ``sandbox`` command."""

import sys

from .main import main

sys.exit(main())
