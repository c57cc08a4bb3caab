"""Imports the guest's standard library (and bundled packages) once, at build time.

A module imported here costs nothing at isolate start-up, and a module not imported here
does not exist inside the isolate at all (see ``stdlib.py``). ``load()`` imports every
module of ``sys.stdlib_module_names`` (private ones included) that ``stdlib.UNAVAILABLE``
does not exclude, then every submodule of every package among them, then the bundled
pure-Python packages (``bundled_packages``, written by the build next to the guest
sources) with every submodule: a module imported lazily is still there when it is asked
for. What failed to import is kept in ``FAILED`` (name -> error) for the build's
own check; what succeeded is ``AVAILABLE``, the list the README and the execute tool
description are generated from.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import pkgutil
import sys
import types
import warnings
from typing import Any

from stdlib import SKIPPED_PARTS, UNAVAILABLE, unavailable_reason

AVAILABLE: list[str] = []
"""Every module the isolate can import (public names, submodules included), sorted."""
FAILED: dict[str, str] = {}
"""Modules the build tried and could not import, with the error."""
PACKAGES: list[str] = []
"""The bundled third-party top-level modules that imported."""


def _wanted(name: str) -> bool:
    parts = name.split(".")
    return unavailable_reason(name) is None and not SKIPPED_PARTS & set(parts)


def _import(name: str) -> object | None:
    try:
        # A module may print when imported (sympy.this): at build time that is noise, and
        # componentize-py's snapshot must not see it.
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()):
            warnings.simplefilter("ignore")
            module = importlib.import_module(name)
    except BaseException as exc:  # anything a module does at import (SystemExit included)
        FAILED[name] = f"{type(exc).__name__}: {exc}"
        return None
    return module


def _import_tree(name: str) -> list[str]:
    """``name`` and every submodule of it that imports, by name."""
    module = _import(name)
    if module is None:
        return []
    loaded = [name]
    path = getattr(module, "__path__", None)
    if path is None:
        return loaded
    for info in pkgutil.walk_packages(path, prefix=name + ".", onerror=lambda _name: None):
        if _wanted(info.name) and _import(info.name) is not None:
            loaded.append(info.name)
    return loaded


class AbsentName:
    """A name looked up on an ``AbsentModule``: it can be held, compared and looked into
    (a package may do that at its top), and calling it raises why the module is absent."""

    def __init__(self, module: str, name: str) -> None:
        self._module, self._name = module, name

    def _refuse(self) -> ModuleNotFoundError:
        return ModuleNotFoundError(f"{self._module}.{self._name} is unavailable: module "
                                   f"{self._module!r} is absent ({UNAVAILABLE[self._module]})")

    def __call__(self, *_args: Any, **_kwargs: Any) -> Any:
        raise self._refuse()

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return AbsentName(self._module, f"{self._name}.{attr}")

    def __repr__(self) -> str:
        return f"<unavailable {self._module}.{self._name}>"


class AbsentModule(types.ModuleType):
    """What a bundled package that imports an unavailable module at its top gets instead
    while the build imports it: every name in it is an ``AbsentName``."""

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return AbsentName(self.__name__, attr)


_WASM32_C_SIZES = {"c_char": 1, "c_byte": 1, "c_ubyte": 1, "c_bool": 1, "c_short": 2,
                   "c_ushort": 2, "c_int": 4, "c_uint": 4, "c_long": 4, "c_ulong": 4,
                   "c_longlong": 8, "c_ulonglong": 8, "c_float": 4, "c_double": 8,
                   "c_size_t": 4, "c_ssize_t": 4, "c_void_p": 4}
"""C type sizes on wasm32, for the one question sympy asks of ctypes at its top
(``sizeof(c_long)``, to know the largest C long)."""


def _ctypes_sizeof(ctype: Any) -> int:
    size = _WASM32_C_SIZES.get(getattr(ctype, "_name", ""))
    if size is None:
        raise ModuleNotFoundError(f"ctypes.sizeof is unavailable: module 'ctypes' is absent "
                                  f"({UNAVAILABLE['ctypes']})")
    return size


STAND_INS = ("bz2", "lzma", "ctypes", "mmap")
"""Unavailable modules some bundled packages import at their top (networkx: bz2; sympy:
ctypes; dulwich: mmap, whose use the bash guest's git switches off) without needing them
for what runs in here: they get an ``AbsentModule`` while the build imports them. Afterwards ``guard.block_modules`` drops these from ``sys.modules``,
so ``import bz2`` in the code still says why it is absent."""


def _bundled() -> list[str]:
    try:
        from bundled_packages import TOP_LEVEL  # type: ignore[import-not-found]  # written by sandbox/build.py
    except ImportError:
        return []
    return list(TOP_LEVEL)


def load() -> None:
    """Import everything the image offers (once, at build time)."""
    names: set[str] = set()
    # Private modules too: the public ones import some lazily (ast.unparse: _ast_unparse;
    # int and str conversions of huge numbers: _pylong).
    for name in sorted(sys.stdlib_module_names):
        if _wanted(name):
            names.update(_import_tree(name))
    import _strptime  # noqa: F401  (time.strptime and datetime.strptime import it lazily)
    for name in STAND_INS:
        sys.modules.setdefault(name, AbsentModule(name))
    vars(sys.modules["ctypes"]).setdefault("sizeof", _ctypes_sizeof)
    for name in _bundled():
        if name in SKIPPED_PARTS:
            continue
        tree = _import_tree(name)
        if tree:
            PACKAGES.append(name)
        names.update(tree)
    AVAILABLE[:] = sorted(names)


__all__ = ["AVAILABLE", "FAILED", "PACKAGES", "load"]
