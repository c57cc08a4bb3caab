"""Makes the guest's ``bash`` package importable in host-side tests (it lives in wasm/guest)."""

import sys
from pathlib import Path

GUEST_ROOT = Path(__file__).resolve().parents[2] / "wasm" / "guest"
if str(GUEST_ROOT) not in sys.path:
    sys.path.insert(0, str(GUEST_ROOT))
