"""The command line starts light: parsing the command line and running a command that
serves nothing imports neither the HTTP layer (FastAPI, the routes) nor the MCP SDK; the
commands that serve import them when they run (``benchmarks/startup.py`` measures it)."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("fastapi", "uvicorn", "mcp", "mcp_types", "sandbox.service.app")


def _imported_after(code: str) -> list[str]:
    probe = (f"import json, sys\n{code}\n"
             f"print(json.dumps(sorted(m for m in sys.modules if m in {HEAVY!r} "
             f"or m.split('.')[0] in {HEAVY!r})))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, check=True)
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


def test_building_the_parser_imports_no_http_layer_and_no_mcp_sdk() -> None:
    assert _imported_after("from sandbox.cli import build_parser; build_parser()") == []


def test_a_command_that_serves_nothing_imports_no_http_layer() -> None:
    code = ("from sandbox.cli import main\n"
            "try:\n    main(['--version'])\nexcept SystemExit:\n    pass")
    assert _imported_after(code) == []


def test_the_service_package_imports_the_app_when_it_is_asked_for() -> None:
    assert _imported_after("import sandbox.service") == []
    assert "fastapi" in _imported_after("from sandbox.service import create_app")
