"""``/console``: the operator console in the browser, and the few endpoints only it needs.

- ``GET  /console``                     the page (signed in), else a redirect to the sign-in
- ``GET  /console/login``, ``POST``     sign in with a token: a session cookie in exchange
- ``POST /console/logout``              sign out (the session's CSRF token in the form)
- ``GET  /console/api/session``         who the page acts as, what it may show, its CSRF token
- ``GET  /console/api/approvals/events`` Server-Sent Events: the approvals list, whenever it
  changes
- ``/console/static/...``               the page's scripts and styles (package data)

The page does everything else through the ordinary ``/v1`` routes with its cookie, which the
guard accepts (and CSRF-checks) in place of a bearer token. The sign-in form itself is
protected by a double-submit token (a cookie and a hidden field that must match), so another
site cannot sign a browser in as someone else.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import secrets
from collections.abc import AsyncIterator
from html import escape
from typing import Annotated, Any
from urllib.parse import parse_qs

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.staticfiles import StaticFiles

from .. import state
from ..console import ASSETS
from ..console.sessions import COOKIE, Session, SessionStore, principal_of, sign_in
from ..identity import SCOPES, Principal, current_principal, requires, same_secret
from ..responses import SafeJSONResponse

__all__ = ["install_console", "router"]

LOGIN_COOKIE = "sandbox_console_login"
MAX_FORM_BYTES = 16 * 1024
POLL_S = 0.25
"""How often the approvals stream looks at the event bus's position (a memory read); the
database is read only when it moved, or every ``REFRESH_S`` (a decision by another process)."""
REFRESH_S = 5.0
PENDING_SHOWN = 500
"""The pending approvals the page lists (oldest first: every one of them waits for someone)."""
DECIDED_SHOWN = 50
"""The most recently created decided ones listed under them."""

Reader = Annotated[Principal, Depends(requires("approvals:decide", "execute"))]

router = APIRouter(tags=["console"], include_in_schema=False)


def install_console(app: FastAPI) -> None:
    app.include_router(router)
    app.mount("/console/static", StaticFiles(directory=ASSETS / "static"), name="console-static")


def _sessions(request: Request) -> SessionStore:
    found = getattr(request.app.state, "console_sessions", None)
    if not isinstance(found, SessionStore):
        found = request.app.state.console_sessions = SessionStore(
            state.settings(request).database_path)
    return found


async def _signed_in(request: Request) -> tuple[Session, Principal] | None:
    session_id = request.cookies.get(COOKIE)
    session = None if session_id is None else await _sessions(request).get(session_id)
    if session is None:
        return None
    identity = getattr(request.app.state, "identity", None)
    who = await principal_of(session, bootstrap_token=state.settings(request).token,
                             identity=identity)
    return None if isinstance(who, str) else (session, who)


@functools.cache
def _template(name: str) -> str:
    return (ASSETS / name).read_text()


def _page(name: str, **values: str) -> str:
    text = _template(name)
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    return text


NO_STORE = {"Cache-Control": "no-store", "X-Frame-Options": "DENY",
            "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; "
                                       "frame-ancestors 'none'; form-action 'self'"}


@router.get("/console")
async def console(request: Request) -> Response:
    found = await _signed_in(request)
    if found is None:
        return RedirectResponse("/console/login", status_code=303)
    # What /console/api/session answers, in the page itself: one round trip less before
    # the page can ask for its data. Not executable (application/json), and "<" escaped so
    # nothing in it can close the element.
    inline = json.dumps(_session_view(*found)).replace("<", "\\u003c")
    return HTMLResponse(_page("index.html", session=inline), headers=NO_STORE)


def _login_page(request: Request, error: str = "", status: int = 200) -> HTMLResponse:
    nonce = secrets.token_urlsafe(24)
    local = state.settings(request).token is None
    response = HTMLResponse(_page("login.html", csrf=nonce, error=escape(error),
                                  hint="" if not local else
                                  "With no token configured, leave it empty to sign in as "
                                  "the local user."),
                            status_code=status, headers=NO_STORE)
    response.set_cookie(LOGIN_COOKIE, nonce, httponly=True, samesite="strict",
                        path="/console", secure=request.url.scheme == "https")
    return response


@router.get("/console/login")
async def login_page(request: Request) -> Response:
    return _login_page(request)


async def _form(request: Request) -> dict[str, str]:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM_BYTES:
            return {}
    fields = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
    return {key: values[0] for key, values in fields.items()}


@router.post("/console/login")
async def login(request: Request) -> Response:
    form = await _form(request)
    expected = request.cookies.get(LOGIN_COOKIE, "")
    if not expected or not same_secret(form.get("csrf", ""), expected):
        return _login_page(request, "The sign-in form expired or was not this page's: "
                                    "try again.", status=403)
    identity = getattr(request.app.state, "identity", None)
    found = await sign_in(form.get("token", "").strip(), identity=identity,
                          bootstrap_token=state.settings(request).token)
    if isinstance(found, str):
        return _login_page(request, f"Not signed in: {found}.", status=401)
    session = await _sessions(request).create(*found)
    response = RedirectResponse("/console", status_code=303)
    response.set_cookie(COOKIE, session.id, httponly=True, samesite="strict", path="/",
                        max_age=int(_sessions(request).ttl_s),
                        secure=request.url.scheme == "https")
    response.delete_cookie(LOGIN_COOKIE, path="/console")
    return response


@router.post("/console/logout")
async def logout(request: Request) -> Response:
    form = await _form(request)
    session_id = request.cookies.get(COOKIE, "")
    session = await _sessions(request).get(session_id)
    if session is not None:
        supplied = form.get("csrf") or request.headers.get("x-csrf-token", "")
        if not same_secret(supplied, session.csrf):
            return HTMLResponse("<!doctype html><p>Sign-out refused: missing or wrong CSRF "
                                "token. <a href='/console'>Back</a></p>", status_code=403)
        await _sessions(request).end(session_id)
    response = RedirectResponse("/console/login", status_code=303)
    response.delete_cookie(COOKIE, path="/")
    return response


SECTIONS = {"approvals": ("approvals:decide", "execute"), "executions": ("execute",),
            "audit": ("audit:read",), "workspaces": ("workspaces:read",)}
"""Each page of the console and the scopes that show it (any one of them)."""


def _session_view(session: Session | None, who: Principal) -> dict[str, Any]:
    return {"principal": who.to_dict(), "csrf": None if session is None else session.csrf,
            "sections": [name for name, scopes in SECTIONS.items()
                         if any(who.allows(s) for s in scopes)],
            "can": {scope: who.allows(scope) for scope in SCOPES}}


@router.get("/console/api/session", response_class=SafeJSONResponse)
async def session_info(request: Request) -> dict[str, Any]:
    found = await _sessions(request).get(request.cookies.get(COOKIE, ""))
    return _session_view(found, current_principal(request))


@router.get("/console/api/approvals/events", response_class=StreamingResponse)
async def approval_events(request: Request, who: Reader) -> StreamingResponse:
    return StreamingResponse(_approval_stream(request, who), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


async def _approval_stream(request: Request, who: Principal) -> AsyncIterator[bytes]:
    """An ``approvals`` event with the list (every pending one, the newest decided ones) at
    once and after each change; ``: ping`` lines between, so proxies keep the stream open."""
    store = state.codemode_store(request)
    bus = state.events(request)
    heartbeat = float(state.settings(request).events_heartbeat_s)
    seen_digest, seen_position, waited, quiet = "", -1, REFRESH_S, 0.0
    while True:
        if bus.last_id != seen_position or waited >= REFRESH_S:
            seen_position, waited = bus.last_id, 0.0
            pending = await store.list_approvals(status="pending", limit=PENDING_SHOWN,
                                                 tenant=who.tenant)
            recent = await store.list_approvals(status=None, limit=DECIDED_SHOWN + len(pending),
                                                tenant=who.tenant, newest_first=True)
            listed = [a.to_dict() for a in
                      [*pending, *[a for a in recent if a.status != "pending"][:DECIDED_SHOWN]]]
            text = json.dumps({"approvals": listed}, default=str)
            digest = hashlib.sha256(text.encode()).hexdigest()
            if digest != seen_digest:
                seen_digest, quiet = digest, 0.0
                yield f"event: approvals\ndata: {text}\n\n".encode()
        if quiet >= heartbeat:
            quiet = 0.0
            yield b": ping\n\n"
        await asyncio.sleep(POLL_S)
        waited += POLL_S
        quiet += POLL_S
