"""The inline-tool signing secret outlives a restart: a resumed run is signed as before."""

from __future__ import annotations

import stat
from pathlib import Path

from sandbox.service.app import _stored_secret


def test_the_secret_is_made_once_owner_only_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "inline_tool_secret"
    first = _stored_secret(path)
    assert len(first) >= 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert _stored_secret(path) == first


def test_an_existing_secret_file_is_used_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "inline_tool_secret"
    path.write_text("chosen-by-the-operator\n")
    assert _stored_secret(path) == "chosen-by-the-operator"
