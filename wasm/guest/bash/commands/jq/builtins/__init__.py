"""jq's builtins: the native ones by family, and the prelude written in jq.

- ``registry``: the table of natives and the ``native``/``simple`` decorators
- ``values``, ``numeric``, ``arrays``, ``strings``, ``paths``, ``system``, ``regex``,
  ``dates``: the native builtins, one module per family; importing a module registers them
- ``prelude``: the builtins defined in jq itself

``make_interp`` builds an interpreter with all of them installed. The operators and the
``@formats`` are not builtins in this sense; they live in ``operators`` and ``formats``.
"""

from __future__ import annotations

from ..evaluate import Function, Interp
from . import arrays, dates, numeric, paths, regex, strings, system, values
from .prelude import prelude_env
from .registry import NATIVE_PATHS, NATIVES

__all__ = ["KNOWN_FUNCTIONS", "make_interp"]

FAMILIES = (values, numeric, arrays, strings, paths, system, regex, dates)
"""Every family module; each registered its natives when it was imported."""


def _natives() -> dict[tuple[str, int], Function]:
    return {key: Function([], ("identity",), None, fn, NATIVE_PATHS.get(key)) for key, fn in NATIVES.items()}


_NATIVE_FUNCTIONS = _natives()
_PRELUDE_ENV = prelude_env()
"""Made once, at import (so in the guest's image): building them took about a third of a
small jq run. A run never writes to either: its program's definitions, variables and labels
all live in environments below the prelude's."""
KNOWN_FUNCTIONS = frozenset(_NATIVE_FUNCTIONS) | frozenset(_PRELUDE_ENV.funcs)
"""Every builtin's ``(name, arity)``, which a program's calls are checked against."""


def make_interp() -> Interp:
    interp = Interp()
    interp.natives = dict(_NATIVE_FUNCTIONS)
    interp.root_env = _PRELUDE_ENV
    return interp
