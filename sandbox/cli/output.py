"""How the commands print: JSON for machines, indented, text as it is."""

from __future__ import annotations

import json
from typing import Any


def print_json(value: Any) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False))
