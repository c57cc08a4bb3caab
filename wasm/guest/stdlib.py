"""Which standard-library modules the guest offers, and why the others are absent.

componentize-py snapshots the interpreter after the guest's top-level imports ran, and its
standard library is not mounted at run time: a module the build did not import does not
exist in the isolate. So the build (``preload.py``) imports every module of
``sys.stdlib_module_names`` and all their submodules, except those named here, which cannot
work inside an isolate with no network, no processes, no threads, no terminal and no native
code loading. Importing one of those raises ``ModuleNotFoundError`` saying why (``guard``).

This module is data only: the host's tests read it too.
"""

from __future__ import annotations

NO_NETWORK = "the sandbox has no network"
NO_PROCESSES = "the sandbox cannot start processes"
NO_TERMINAL = "the sandbox has no terminal, display or user to talk to"
NO_NATIVE = "the sandbox loads no native code and has no OS-level controls"
NOT_BUILT = ("this interpreter (componentize-py's CPython for WASI) is built without it; "
             "for compression use zlib, gzip, zipfile or tarfile (deflate), for a database sqlite3 "
             "or dbm.dumb")
NO_EVENT_LOOP = ("asyncio's event loop runs on sockets and select, and the sandbox has no "
                 "network; nothing here needs one: tools.* and state.* calls return their "
                 "results directly (call them without await), and a lone `async def main()` "
                 "is run for you")
WINDOWS = "Windows only"
NO_INSTALLS = "the sandbox installs no packages"

UNAVAILABLE: dict[str, str] = {
    **dict.fromkeys((
        "socket", "_socket", "ssl", "_ssl", "select", "selectors",
        "ftplib", "imaplib", "poplib", "smtplib", "socketserver", "http.client", "http.server",
        "urllib.request", "urllib.robotparser", "xmlrpc", "webbrowser", "wsgiref.simple_server",
        "http.cookiejar", "antigravity",
    ), NO_NETWORK),
    **dict.fromkeys(("asyncio", "_asyncio"), NO_EVENT_LOOP),
    **dict.fromkeys((
        "subprocess", "_posixsubprocess", "multiprocessing", "_multiprocessing",
        "concurrent.futures.process", "pty",
    ), NO_PROCESSES),
    **dict.fromkeys((
        "tkinter", "_tkinter", "turtle", "turtledemo", "idlelib", "curses", "_curses", "readline",
        "termios", "tty", "getpass", "pdb", "pydoc", "pydoc_data", "this",
    ), NO_TERMINAL),
    **dict.fromkeys((
        "ctypes", "_ctypes", "mmap", "resource", "fcntl", "grp", "pwd", "syslog",
    ), NO_NATIVE),
    **dict.fromkeys(("concurrent.futures.interpreter", "concurrent.interpreters", "_interpreters"),
                    "the sandbox runs one interpreter (no subinterpreters)"),
    **dict.fromkeys(("lzma", "_lzma", "bz2", "_bz2", "compression.bz2", "compression.lzma",
                     "compression.zstd", "_zstd", "encodings.bz2_codec", "dbm.gnu", "_gdbm",
                     "dbm.ndbm", "_dbm"), NOT_BUILT),
    **dict.fromkeys(("msvcrt", "nt", "winreg", "winsound", "_winapi", "nturl2path", "encodings.mbcs",
                     "encodings.oem"), WINDOWS),
    **dict.fromkeys(("ensurepip", "venv"), NO_INSTALLS),
}
"""Modules absent from the image, each with the reason its import gives."""

SKIPPED_PARTS = frozenset({"test", "tests", "idle_test", "__main__", "conftest", "benchmarks",
                           "testing", "interactive", "plotting", "this", "isympy"})
"""Module names never imported at build time: test suites and benchmarks, entry points,
and the parts of bundled packages meant for a terminal or a display (sympy's interactive
session and plotting, its printed zen)."""


def unavailable_reason(name: str) -> str | None:
    """Why ``name`` (or the package it is in) is absent, if it is."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        reason = UNAVAILABLE.get(".".join(parts[:end]))
        if reason is not None:
            return reason
    return None


__all__ = ["SKIPPED_PARTS", "UNAVAILABLE", "unavailable_reason"]
