"""The guest component's entry point: what the WIT world exports, and nothing else.

Imports here run once, at build time, inside componentize-py's snapshot: the preloaded
standard library, the Code Mode runtime and the bash interpreter are all part of the image,
so a fresh isolate starts with them in memory.
"""

from __future__ import annotations

import preload  # noqa: F401  (imports the guest's standard library into the snapshot)
import guard
import pyexec
import runfacts
import wit_world
from componentize_py_types import Err
from wit_world.imports import host

import bash_entry

guard.block_modules(preload.BLOCKED_MODULES)
guard.install()
runfacts.install()


class WitWorld(wit_world.WitWorld):  # type: ignore[misc]  # generated at build time, untyped here
    def execute(self, request: str) -> str:
        return pyexec.run(request, host.call, Err)

    def bash(self, request: str) -> str:
        return bash_entry.run_request(request)
