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
from .prelude import install_prelude
from .registry import NATIVE_PATHS, NATIVES

__all__ = ["make_interp"]

FAMILIES = (values, numeric, arrays, strings, paths, system, regex, dates)
"""Every family module; each registered its natives when it was imported."""


def make_interp() -> Interp:
    interp = Interp()
    for key, fn in NATIVES.items():
        interp.natives[key] = Function([], ("identity",), None, fn, NATIVE_PATHS.get(key))
    install_prelude(interp)
    return interp
