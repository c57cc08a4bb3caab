"""What the guest image offers to import, as generated from the image itself.

``STDLIB`` and ``PACKAGES`` below are written by ``python -m sandbox.guest_modules``, which
asks a real isolate of the current image (``preload.AVAILABLE`` and ``preload.PACKAGES``,
see ``wasm/guest/preload.py``) and rewrites them here and in the README's module list.
``tests/sandbox/test_guest_stdlib.py`` holds the image, this file and the README to the same
list, so none of the three can drift. The execute tool's description says the same
(:func:`summary`).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

# --- generated: do not edit (python -m sandbox.guest_modules) ---
STDLIB: tuple[str, ...] = (
    'abc',
    'annotationlib',
    'argparse',
    'array',
    'ast',
    'atexit',
    'base64',
    'bdb',
    'binascii',
    'bisect',
    'builtins',
    'cProfile',
    'calendar',
    'cmath',
    'cmd',
    'code',
    'codecs',
    'codeop',
    'collections',
    'colorsys',
    'compileall',
    'compression',
    'concurrent',
    'configparser',
    'contextlib',
    'contextvars',
    'copy',
    'copyreg',
    'csv',
    'dataclasses',
    'datetime',
    'dbm',
    'decimal',
    'difflib',
    'dis',
    'doctest',
    'email',
    'encodings',
    'enum',
    'errno',
    'faulthandler',
    'filecmp',
    'fileinput',
    'fnmatch',
    'fractions',
    'functools',
    'gc',
    'genericpath',
    'getopt',
    'gettext',
    'glob',
    'graphlib',
    'gzip',
    'hashlib',
    'heapq',
    'hmac',
    'html',
    'http',
    'importlib',
    'inspect',
    'io',
    'ipaddress',
    'itertools',
    'json',
    'keyword',
    'linecache',
    'locale',
    'logging',
    'mailbox',
    'marshal',
    'math',
    'mimetypes',
    'modulefinder',
    'netrc',
    'ntpath',
    'numbers',
    'opcode',
    'operator',
    'optparse',
    'os',
    'pathlib',
    'pickle',
    'pickletools',
    'pkgutil',
    'platform',
    'plistlib',
    'posix',
    'posixpath',
    'pprint',
    'profile',
    'pstats',
    'py_compile',
    'pyclbr',
    'pyexpat',
    'queue',
    'quopri',
    'random',
    're',
    'reprlib',
    'rlcompleter',
    'runpy',
    'sched',
    'secrets',
    'shelve',
    'shlex',
    'shutil',
    'signal',
    'site',
    'sqlite3',
    'sre_compile',
    'sre_constants',
    'sre_parse',
    'stat',
    'statistics',
    'string',
    'stringprep',
    'struct',
    'symtable',
    'sys',
    'sysconfig',
    'tabnanny',
    'tarfile',
    'tempfile',
    'textwrap',
    'threading',
    'time',
    'timeit',
    'token',
    'tokenize',
    'tomllib',
    'trace',
    'traceback',
    'tracemalloc',
    'types',
    'typing',
    'unicodedata',
    'unittest',
    'urllib',
    'uuid',
    'warnings',
    'wave',
    'weakref',
    'wsgiref',
    'xml',
    'zipapp',
    'zipfile',
    'zipimport',
    'zlib',
    'zoneinfo',
)
PACKAGES: tuple[str, ...] = (
    'attr',
    'attrs',
    'bashlex',
    'bs4',
    'dateutil',
    'dulwich',
    'et_xmlfile',
    'html5lib',
    'idna',
    'jinja2',
    'markdown',
    'markupsafe',
    'more_itertools',
    'mpmath',
    'networkx',
    'openpyxl',
    'packaging',
    'pydantic',
    'pytz',
    'six',
    'soupsieve',
    'sympy',
    'tabulate',
    'tlz',
    'toolz',
    'typing_extensions',
    'tzdata',
    'webencodings',
    'xlsxwriter',
    'yaml',
)
# --- end generated ---

README = Path(__file__).resolve().parent.parent / "README.md"
_README_BLOCK = re.compile(r"(<!-- guest-modules -->\n).*?(<!-- /guest-modules -->)", re.DOTALL)
_DATA_BLOCK = re.compile(r"(# --- generated: do not edit \(python -m sandbox.guest_modules\) ---\n)"
                         r".*?(# --- end generated ---)", re.DOTALL)
QUERY = ("import preload\n[sorted({m.split('.')[0] for m in preload.AVAILABLE if not m.startswith('_')}"
         " - set(preload.PACKAGES) - {'bundled_packages'}), preload.PACKAGES]")
"""What a run of the image is asked: its top-level standard-library modules and packages."""


def summary() -> str:
    """One paragraph for the execute tool's description."""
    return ("Standard library (no network, processes or threads): " + ", ".join(STDLIB)
            + ". Bundled packages: " + ", ".join(PACKAGES) + ".")


def markdown() -> str:
    """The README's module list."""
    return (f"Standard library ({len(STDLIB)} top-level modules, each with its submodules):\n"
            + ", ".join(f"`{name}`" for name in STDLIB)
            + f".\n\nBundled packages ({len(PACKAGES)} top-level modules, pinned in "
            "`wasm/packages.txt`):\n" + ", ".join(f"`{name}`" for name in PACKAGES) + ".\n")


def ask_image() -> tuple[list[str], list[str]]:
    """``(stdlib, packages)`` as a fresh isolate of the current image reports them."""
    from .engine import ensure_compiled
    from .isolate import GuestRuntime
    from .limits import Limits

    runtime = GuestRuntime(ensure_compiled())
    request = json.dumps({"code": QUERY, "max_output_bytes": 1_000_000})
    with runtime.isolate(Limits.default) as isolate:
        response = json.loads(isolate.call("execute", request, lambda _name, _payload: "null"))
    stdlib, packages = response["result"]
    return list(stdlib), list(packages)


def write(stdlib: list[str], packages: list[str]) -> None:
    """Rewrite the generated lists here and in the README."""
    global STDLIB, PACKAGES
    STDLIB, PACKAGES = tuple(stdlib), tuple(packages)
    source = Path(__file__).read_text()
    data = f"STDLIB: tuple[str, ...] = {STDLIB!r}\nPACKAGES: tuple[str, ...] = {PACKAGES!r}\n"
    Path(__file__).write_text(_DATA_BLOCK.sub(lambda m: m.group(1) + _wrapped(data) + m.group(2),
                                              source))
    README.write_text(_README_BLOCK.sub(lambda m: m.group(1) + markdown() + m.group(2),
                                        README.read_text()))


def _wrapped(data: str) -> str:
    """The generated assignments, one name per line (the line-length rule holds here too)."""
    lines = []
    for line in data.splitlines():
        name, _, value = line.partition(" = ")
        items = json.loads("[" + value.strip("()").rstrip(",").replace("'", '"') + "]")
        lines.append(f"{name} = (\n" + "".join(f"    {item!r},\n" for item in items) + ")")
    return "\n".join(lines) + "\n"


def main() -> int:
    stdlib, packages = ask_image()
    write(stdlib, packages)
    print(f"{len(stdlib)} standard-library modules, {len(packages)} packages", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
