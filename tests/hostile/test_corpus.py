"""Every case of the hostile corpus (``tests/hostile/*.toml``) against a real live service
with a token: the case's predicate holds, no response carries a host secret, the host file
is unchanged and ``/healthz`` answers afterwards. Cases of open findings are strict xfails
naming the finding, so they flip when it is fixed."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Iterator

import pytest

from hostile_runner import Case, Context, Listener, describe, judge, load_cases, run_case
from live_server import ServerThread
from sandbox.engine import CompiledGuest
from sandbox.service import Settings, create_app

CASES = load_cases()
CANARY_ENV = "HOSTILE_CANARY_SECRET"


def _param(case: Case) -> object:
    marks = [pytest.mark.xfail(strict=True, reason=case.xfail)] if case.xfail else []
    return pytest.param(case, id=case.id, marks=marks)


@pytest.fixture(scope="module")
def context(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[Context]:
    host = tmp_path_factory.mktemp("host")
    secret = "host-file-secret-" + secrets.token_hex(8)
    sentinel = host / "secret.txt"
    sentinel.write_text(secret + "\n")
    canary = "host-env-secret-" + secrets.token_hex(8)
    data_dir = tmp_path_factory.mktemp("data")
    token = secrets.token_hex(12)
    previous = os.environ.get(CANARY_ENV)
    os.environ[CANARY_ENV] = canary  # workers start inside the server, with this environment
    listener = Listener()
    try:
        settings = Settings(data_dir=data_dir, workers=2, guest=compiled_guest, token=token)
        with ServerThread(create_app(settings)) as live:
            yield Context(live.url, token, sentinel, secret, data_dir, CANARY_ENV, canary,
                          listener)
    finally:
        listener.close()
        if previous is None:
            os.environ.pop(CANARY_ENV, None)
        else:
            os.environ[CANARY_ENV] = previous


@pytest.mark.slow
@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_hostile_case_is_contained(context: Context, case: Case) -> None:
    outcome = run_case(context, case)
    problems = judge(context, case, outcome)
    assert not problems, describe(case, outcome, problems)
