"""The OpenAPI document is the truth: schemathesis (``--checks all``) generates requests
from ``/openapi.json`` and sends them to a live service, which must answer every one as
documented (no server error, documented statuses, content types and bodies, schema-valid
data accepted and schema-violating data refused, ``Allow`` on 405). The seed is fixed, so a
failure reproduces with the command in the assertion message."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from live_server import ServerThread
from sandbox.engine import CompiledGuest
from sandbox.service import Settings, create_app

CONFIG = Path(__file__).with_name("schemathesis.toml")
TOKEN = "conformance-operator-token"
"""The bootstrap operator token: generated requests may make tokens (``POST
/v1/admin/tokens``), which ends the token-less local mode, so every request carries one."""
SCHEMATHESIS = Path(sys.executable).with_name("st")


@pytest.fixture(scope="module")
def server(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[ServerThread]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("data"), workers=2, guest=compiled_guest,
                        token=TOKEN)
    with ServerThread(create_app(settings)) as live:
        yield live


@pytest.mark.slow
@pytest.mark.fuzz
def test_every_generated_request_is_answered_as_documented(server: ServerThread) -> None:
    command = [str(SCHEMATHESIS), "--no-color", "--config-file", str(CONFIG), "run",
               f"{server.url}/openapi.json", "--checks", "all", "--max-examples", "40",
               "--header", f"Authorization: Bearer {TOKEN}",
               "--seed", "20261201", "--workers", "1", "--request-timeout", "60"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=1200)
    report = done.stdout[-12_000:] + done.stderr[-4_000:]
    assert done.returncode == 0, f"{' '.join(command)}\n{report}"
    assert "API Operations" in done.stdout, report  # it really ran
