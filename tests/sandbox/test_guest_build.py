"""The guest image's packages: pinned, hashed, part of the cache key, never the build
environment's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from sandbox import Sandbox, build


def test_every_bundled_package_is_pinned_to_a_version_and_a_hash() -> None:
    pins = build.pinned_packages()
    names = {name for name, _version, _digest in pins}
    assert {"jinja2", "markupsafe", "pyyaml", "sympy", "networkx", "pydantic", "tzdata",
            "python-dateutil", "pytz", "beautifulsoup4", "openpyxl", "xlsxwriter"} <= names
    assert all(len(digest) == 64 and version for _name, version, digest in pins)


def test_changing_a_pin_changes_the_guests_cache_key(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    pins = tmp_path / "packages.txt"
    pins.write_text(build.PACKAGES_FILE.read_text())
    monkeypatch.setattr(build, "PACKAGES_FILE", pins)
    before = build.source_hash()
    pins.write_text(pins.read_text().replace("tabulate==", "tabulate==0.0.0-", 1))
    assert build.source_hash() != before


def test_an_unhashed_pin_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pins = tmp_path / "packages.txt"
    pins.write_text("tabulate==0.10.0\n")
    monkeypatch.setattr(build, "PACKAGES_FILE", pins)
    with pytest.raises(build.GuestBuildError, match="not a pinned, hashed requirement"):
        build.pinned_packages()


@pytest.mark.parametrize("module", ["httpx", "fastapi", "wasmtime", "jsonschema"])
def test_the_build_environments_own_packages_are_not_in_the_image(sandbox: Sandbox,
                                                                  module: str) -> None:
    outcome = sandbox.execute(f"import {module}")
    assert outcome.error is not None and outcome.error["name"] == "ModuleNotFoundError"


def test_package_metadata_is_there_at_run_time(sandbox: Sandbox) -> None:
    code = ("import importlib.metadata as m\n"
            "[m.version('jinja2'), m.version('Jinja2'), "
            "'tables' in {e.name for e in m.entry_points(group='markdown.extensions')}]")
    version = next(v for n, v, _d in build.pinned_packages() if n == "jinja2")
    assert sandbox.execute(code).result == [version, version, True]


def test_a_build_whose_memory_outgrew_componentize_py_s_copy_says_so() -> None:
    # componentize-py's own words end in a wasmtime backtrace that never names the cause.
    said = ("Caused by:\n    0: retrieving memory with component-init-get-memory\n"
            f"    1: too much data is being copied between the host and the guest: {build.HOSTCALL_FUEL_EXHAUSTED}")
    assert "grew past what componentize-py can copy out of it (128 MiB)" in build._hint(said)
    assert build._hint("SyntaxError: invalid syntax") == ""
