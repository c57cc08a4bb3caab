"""Which interpreter runs a piece of code: the standard guest or the science engine.

``"engine": "auto"`` (the default) reads the code's imports with ``ast``: code that imports a
module only the science interpreter has (numpy, pandas, scipy, matplotlib...) runs there,
everything else on the standard guest, whose isolates start faster and carry no scientific
stack. ``"standard"`` and ``"science"`` choose explicitly. Code that does not parse goes to
the standard guest, which reports its syntax error as usual.
"""

from __future__ import annotations

import ast
import re

__all__ = ["ENGINES", "SCIENCE_MODULES", "choose_engine", "science_imports"]

ENGINES = ("auto", "standard", "science")
SCIENCE_MODULES = frozenset({
    "numpy", "pandas", "scipy", "matplotlib", "sklearn", "statsmodels", "seaborn", "patsy",
    "formulaic", "PIL", "lxml", "xlrd", "pypdf", "contourpy",
    "kiwisolver", "fontTools", "cycler", "narwhals", "joblib", "threadpoolctl", "pylab",
})
"""Top-level modules that only the science interpreter has (openpyxl and xlsxwriter are in
the standard guest too: ``wasm/packages.txt``)."""
_FENCE = re.compile(r"\A\s*```[A-Za-z0-9_+-]*[ \t]*\r?\n(.*?)\r?\n?```\s*\Z", re.DOTALL)
_DYNAMIC = ("__import__", "import_module")


def _top(name: str) -> str:
    return name.split(".", 1)[0]


def science_imports(code: str) -> set[str]:
    """The science-only modules ``code`` imports (statements, ``__import__("x")`` and
    ``importlib.import_module("x")`` with a constant name), anywhere in it."""
    if not any(name in code for name in SCIENCE_MODULES):
        return set()  # every way counted below names the module literally: no parse needed
    match = _FENCE.match(code)
    try:
        tree = ast.parse(match.group(1) if match else code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(_top(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(_top(node.module))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else \
                func.attr if isinstance(func, ast.Attribute) else ""
            if called in _DYNAMIC:
                found.add(_top(node.args[0].value))
    return found & SCIENCE_MODULES


def choose_engine(code: str, requested: str = "auto") -> str:
    """``"standard"`` or ``"science"`` for ``code`` under the request's ``engine``."""
    if requested not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {requested!r}")
    if requested != "auto":
        return requested
    return "science" if science_imports(code) else "standard"
