"""The console's sign-in, session cookie and CSRF rules, and the offline API docs, over HTTP.

(What a person sees and clicks is tested in a real browser: ``test_console_browser.py``.)
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import httpx
import pytest

from live_server import ServerThread
from sandbox import CompiledGuest
from sandbox.service import Settings, create_app
from sandbox.service.console.sessions import SessionStore
from sandbox.service.identity import hash_token

BOOT = "console-boot-token"


@pytest.fixture(scope="module")
def url(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("console"), workers=1,
                        guest=compiled_guest, token=BOOT, sweep_interval_s=0)
    with ServerThread(create_app(settings)) as live:
        yield live.url


def _token(url: str, name: str, *scopes: str) -> tuple[str, str]:
    made = httpx.post(f"{url}/v1/admin/tokens", headers={"Authorization": f"Bearer {BOOT}"},
                      json={"name": name, "scopes": list(scopes)})
    assert made.status_code == 201, made.text
    return str(made.json()["token"]), str(made.json()["id"])


@contextmanager
def _signed_in(url: str, token: str) -> Iterator[httpx.Client]:
    """A client that signed in through the form, as a browser does (it keeps the cookies)."""
    with httpx.Client(base_url=url) as browser:
        form = browser.get("/console/login")
        nonce = re.search(r'name="csrf" value="([^"]+)"', form.text)
        assert nonce is not None
        answer = browser.post("/console/login", data={"token": token, "csrf": nonce.group(1)})
        assert answer.status_code == 303 and answer.headers["location"] == "/console", answer.text
        yield browser


def test_the_console_redirects_to_sign_in_until_a_token_is_exchanged_for_a_cookie(url: str) -> None:
    with httpx.Client(base_url=url) as anonymous:
        assert anonymous.get("/console").headers["location"] == "/console/login"
        assert anonymous.get("/console/api/session").status_code == 401
    with _signed_in(url, BOOT) as browser:
        cookie = next(c for c in browser.cookies.jar if c.name == "sandbox_console")
        assert cookie.has_nonstandard_attr("HttpOnly") and cookie.path == "/"
        assert BOOT not in cookie.value
        page = browser.get("/console")
        assert page.status_code == 200 and "console.js" in page.text
        assert page.headers["cache-control"] == "no-store"
        assert browser.get("/console/api/session").json()["principal"]["name"] == "bootstrap"


def test_the_session_cookie_is_set_strict(url: str) -> None:
    with httpx.Client(base_url=url) as browser:
        nonce = re.search(r'name="csrf" value="([^"]+)"', browser.get("/console/login").text)
        assert nonce is not None
        answer = browser.post("/console/login", data={"token": BOOT, "csrf": nonce.group(1)})
        set_cookie = [v for k, v in answer.headers.multi_items()
                      if k == "set-cookie" and v.startswith("sandbox_console=")]
        assert len(set_cookie) == 1 and "samesite=strict" in set_cookie[0].lower()
        assert "httponly" in set_cookie[0].lower()


def test_signing_in_takes_the_forms_own_csrf_token_and_a_real_token(url: str) -> None:
    with httpx.Client(base_url=url) as browser:
        browser.get("/console/login")
        forged = browser.post("/console/login", data={"token": BOOT, "csrf": "guessed"})
        assert forged.status_code == 403 and "sandbox_console=" not in forged.headers.get("set-cookie", "")
        nonce = re.search(r'name="csrf" value="([^"]+)"', browser.get("/console/login").text)
        assert nonce is not None
        wrong = browser.post("/console/login", data={"token": "sbx_nope", "csrf": nonce.group(1)})
        assert wrong.status_code == 401 and "wrong token" in wrong.text
        # With tokens configured, an empty token is not the local user.
        nonce = re.search(r'name="csrf" value="([^"]+)"', browser.get("/console/login").text)
        assert nonce is not None
        empty = browser.post("/console/login", data={"token": "", "csrf": nonce.group(1)})
        assert empty.status_code == 401


def test_a_session_changes_things_only_with_its_csrf_token(url: str) -> None:
    with _signed_in(url, BOOT) as browser:
        csrf = browser.get("/console/api/session").json()["csrf"]
        missing = browser.post("/v1/executions/sweep", json={})
        assert missing.status_code == 403 and "CSRF" in missing.json()["error"]["message"]
        wrong = browser.post("/v1/executions/sweep", json={}, headers={"X-CSRF-Token": csrf + "x"})
        assert wrong.status_code == 403
        assert browser.post("/v1/executions/sweep", json={},
                            headers={"X-CSRF-Token": csrf}).status_code == 200
        # Reading needs no CSRF token, and the bearer path is unchanged beside the cookie.
        assert browser.get("/v1/admin/whoami").json()["name"] == "bootstrap"
    assert httpx.get(f"{url}/v1/admin/whoami",
                     headers={"Authorization": f"Bearer {BOOT}"}).json()["name"] == "bootstrap"


def test_revoking_the_token_ends_its_sessions(url: str) -> None:
    token, token_id = _token(url, "revoked-reviewer", "approvals:decide")
    with _signed_in(url, token) as browser:
        assert browser.get("/v1/approvals").status_code == 200
        httpx.delete(f"{url}/v1/admin/tokens/{token_id}",
                     headers={"Authorization": f"Bearer {BOOT}"}).raise_for_status()
        ended = browser.get("/v1/approvals")
        assert ended.status_code == 401 and "revoked" in ended.json()["error"]["message"]
        assert browser.get("/console").headers["location"] == "/console/login"


def test_the_session_says_which_pages_the_tokens_scopes_show(url: str) -> None:
    token, _ = _token(url, "auditor", "audit:read")
    with _signed_in(url, token) as browser:
        session = browser.get("/console/api/session").json()
        assert session["sections"] == ["audit"]
        assert session["can"]["approvals:decide"] is False
        assert browser.get("/console/api/approvals/events").status_code == 403


def test_signing_out_ends_the_session_and_needs_its_csrf_token(url: str) -> None:
    with _signed_in(url, BOOT) as browser:
        csrf = browser.get("/console/api/session").json()["csrf"]
        session_cookie = browser.cookies["sandbox_console"]
        assert browser.post("/console/logout", data={"csrf": "nope"}).status_code == 403
        assert browser.get("/console/api/session").status_code == 200
        out = browser.post("/console/logout", data={"csrf": csrf})
        assert out.status_code == 303 and out.headers["location"] == "/console/login"
        # The server forgot it: the old cookie, replayed, is refused.
        replayed = httpx.get(f"{url}/console/api/session",
                             cookies={"sandbox_console": session_cookie})
        assert replayed.status_code == 401


def test_without_any_token_an_empty_sign_in_is_the_local_user(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, workers=1, guest=compiled_guest, sweep_interval_s=0)
    with ServerThread(create_app(settings)) as live, _signed_in(live.url, "") as browser:
        assert browser.get("/console/api/session").json()["principal"]["name"] == "local"


async def test_sessions_expire_and_the_oldest_go_first_past_the_cap(tmp_path: Path) -> None:
    now = [1000.0]
    store = SessionStore(tmp_path / "sandbox.db", ttl_s=60, max_sessions=2, clock=lambda: now[0])
    try:
        first = await store.create("token", f"{1:064x}")
        now[0] += 1
        second = await store.create("token", f"{2:064x}")
        now[0] += 1
        third = await store.create("token", f"{3:064x}")
        assert await store.get(first.id) is None and await store.get(second.id) == second
        now[0] += 61
        assert await store.get(third.id) is None
    finally:
        await store.close()


async def test_the_database_keeps_only_hashes_of_the_session_id_and_token(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "sandbox.db")
    try:
        session = await store.create("token", hash_token("sbx_secret"))
    finally:
        await store.close()
    with sqlite3.connect(tmp_path / "sandbox.db") as conn:
        (row,) = conn.execute("SELECT id_hash, kind, token_hash, csrf FROM console_sessions")
    assert session.id not in row and "sbx_secret" not in "".join(map(str, row))
    assert row[0] == hashlib.sha256(session.id.encode()).hexdigest()
    assert row[1:] == ("token", hash_token("sbx_secret"), session.csrf)


async def test_an_expired_session_is_swept_when_the_next_one_is_made(tmp_path: Path) -> None:
    now = [1000.0]
    store = SessionStore(tmp_path / "sandbox.db", ttl_s=60, clock=lambda: now[0])
    try:
        await store.create("local", None)
        now[0] += 61
        await store.create("local", None)
    finally:
        await store.close()
    with sqlite3.connect(tmp_path / "sandbox.db") as conn:
        assert conn.execute("SELECT count(*) FROM console_sessions").fetchone() == (1,)


def test_a_session_survives_a_restart_until_its_token_is_revoked(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, workers=1, guest=compiled_guest, token=BOOT,
                        sweep_interval_s=0)
    with ServerThread(create_app(settings)) as first:
        token, token_id = _token(first.url, "night-shift", "approvals:decide")
        with _signed_in(first.url, token) as browser:
            cookies = dict(browser.cookies)
            csrf = browser.get("/console/api/session").json()["csrf"]
        port = first.port
    with ServerThread(create_app(settings), port=port) as second, \
            httpx.Client(base_url=second.url, cookies=cookies) as browser:
        session = browser.get("/console/api/session")
        assert session.status_code == 200, session.text
        assert (session.json()["principal"]["name"], session.json()["csrf"]) == ("night-shift", csrf)
        assert browser.get("/console").status_code == 200
        httpx.delete(f"{second.url}/v1/admin/tokens/{token_id}",
                     headers={"Authorization": f"Bearer {BOOT}"}).raise_for_status()
        assert browser.get("/console/api/session").status_code == 401


def test_docs_and_redoc_load_nothing_from_another_host(url: str) -> None:
    for page in ("/docs", "/redoc"):
        html = httpx.get(url + page).text
        assets = re.findall(r'(?:src|href)=["\']([^"\']+)["\']', html)
        assert assets and all(a.startswith("/") for a in assets), assets
        assert "://" not in html.replace("http-equiv", "")
        for asset in assets:
            assert httpx.get(url + asset).status_code == 200, asset
