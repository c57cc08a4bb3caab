"""Console login sessions across two real ``sandbox serve`` processes on one PostgreSQL
database: a browser signed in through one is signed in on the other (a load balancer may
send its next request anywhere), and signing out through either ends it on both."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from sandbox.engine import CompiledGuest
from service_processes import OPERATOR, ServiceProcess, services

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def _sign_in(service: ServiceProcess) -> str:
    """The session cookie of a sign-in through ``service``'s form, as a browser does it."""
    with httpx.Client(base_url=service.url) as browser:
        form = browser.get("/console/login")
        nonce = re.search(r'name="csrf" value="([^"]+)"', form.text)
        assert nonce is not None
        answer = browser.post("/console/login", data={"token": OPERATOR, "csrf": nonce.group(1)})
        assert answer.status_code == 303, answer.text
        return str(browser.cookies["sandbox_console"])


def _session(service: ServiceProcess, cookie: str) -> httpx.Response:
    return httpx.get(f"{service.url}/console/api/session", cookies={"sandbox_console": cookie})


def test_a_session_made_on_one_process_is_good_on_the_other_until_signed_out_on_either(
    postgres_url: str, compiled_guest: CompiledGuest, tmp_path: Path,
) -> None:
    del compiled_guest  # compiled into the shared cache before the processes start
    with services(2, postgres_url, tmp_path) as (a, b):
        cookie = _sign_in(a)
        on_b = _session(b, cookie)
        assert on_b.status_code == 200 and on_b.json()["principal"]["name"] == "bootstrap"
        csrf = on_b.json()["csrf"]
        # A change through B with A's session needs the same session's CSRF token.
        assert httpx.post(f"{b.url}/v1/executions/sweep", json={},
                          cookies={"sandbox_console": cookie},
                          headers={"X-CSRF-Token": csrf}).status_code == 200

        out = httpx.post(f"{b.url}/console/logout", data={"csrf": csrf},
                         cookies={"sandbox_console": cookie})
        assert out.status_code == 303
        for service in (a, b):
            assert _session(service, cookie).status_code == 401

        # And the other way round: made on B, ended through A.
        cookie = _sign_in(b)
        assert _session(a, cookie).status_code == 200
        csrf = _session(a, cookie).json()["csrf"]
        assert httpx.post(f"{a.url}/console/logout", data={"csrf": csrf},
                          cookies={"sandbox_console": cookie}).status_code == 303
        assert _session(b, cookie).status_code == 401
