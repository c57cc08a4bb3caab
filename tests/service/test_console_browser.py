"""The console in a real browser (Debian's Chromium, driven by Playwright) against a live
service with real isolates: sign in, see an approval arrive live, decide it, race another
browser, scopes that hide the buttons, CSRF refusals, the audit log (a decision under the
approver's name; a tampered log's first bad seq), sign out, and /docs with no network.

Set ``SANDBOX_SCREENSHOTS=docs`` to save a screenshot of each page (the README shows them).
"""

from __future__ import annotations

import asyncio
import json
import os
import struct
import threading
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest

from audit import AuditLog, VerifyKey, verify_export
from audit_helpers import attacker
from live_server import ServerThread, read_body, send_json, serve_lifespan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from sandbox import CompiledGuest
from sandbox.service import Settings, create_app

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path("/usr/bin/chromium").exists(),
                       reason="Debian's chromium is not installed (scripts/install installs it)"),
]

BOOT = "browser-boot-token"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
SHOTS = os.environ.get("SANDBOX_SCREENSHOTS")


class DeployEndpoint:
    """The agent host's ``ops.deploy`` tool: answers every call it gets."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        call = json.loads(await read_body(receive))
        self.calls.append(call)
        await send_json(send, 200, {"output": {"deployed": call["input"]["site"]}})


@pytest.fixture(scope="module")
def service_settings(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory) -> Settings:
    return Settings(data_dir=tmp_path_factory.mktemp("console-browser"), workers=2,
                    guest=compiled_guest, token=BOOT, sweep_interval_s=0)


@pytest.fixture(scope="module")
def service(service_settings: Settings) -> Iterator[str]:
    endpoint = DeployEndpoint()
    with ServerThread(endpoint) as tool, ServerThread(create_app(service_settings)) as live:
        httpx.put(f"{live.url}/v1/toolsets/ops", headers={"Authorization": f"Bearer {BOOT}"},
                  timeout=60, json={"description": "Operations.", "tools": [{
                      "name": "deploy", "description": "Deploy a site.", "url": tool.url,
                      "input_schema": {"type": "object", "properties": {"site": {"type": "string"}},
                                       "required": ["site"]},
                      "approval": {"mode": "durable", "summary": "Deploy to production",
                                   "risk": "high"}}]}).raise_for_status()
        yield live.url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def _token(url: str, name: str, *scopes: str) -> str:
    made = httpx.post(f"{url}/v1/admin/tokens", headers={"Authorization": f"Bearer {BOOT}"},
                      json={"name": name, "scopes": list(scopes)})
    made.raise_for_status()
    return str(made.json()["token"])


def _paused(url: str, site: str) -> str:
    """A real execution, parked on the gated call: its approval id."""
    body = httpx.post(f"{url}/v1/execute", headers={"Authorization": f"Bearer {BOOT}"},
                      timeout=60, json={"code": f"done = ops.deploy(site={site!r})\nprint(done)\ndone",
                                        "toolsets": ["ops"], "workspace": "site-" + site}).json()
    assert body["status"] == "paused", body
    return str(body["pending"][0]["approval_id"])


def _one_pixel_png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))
    header = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00\xff")) + chunk(b"IEND", b""))


def _sign_in(browser: Any, url: str, token: str) -> Any:
    page = browser.new_context().new_page()
    page.goto(f"{url}/console")
    assert page.url.endswith("/console/login")
    page.fill("input[name=token]", token)
    page.click("button[type=submit]")
    page.wait_for_selector("#whoami:not(:empty)")
    return page


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"console-{name}.png"), full_page=True)


def _card(page: Any, approval_id: str) -> Any:
    return page.locator(f'[data-approval="{approval_id}"]').first


def test_an_approval_appears_live_and_approving_it_completes_the_execution(service: str, browser: Any) -> None:
    alice = _sign_in(browser, service, _token(service, "alice", "approvals:decide", "execute"))
    alice.wait_for_selector("#live.live")
    parked: list[str] = []
    thread = threading.Thread(target=lambda: parked.append(_paused(service, "www")))
    thread.start()  # the page is open: the approval must arrive over SSE, with no reload
    thread.join()
    card = _card(alice, parked[0])
    card.wait_for()
    assert "ops.deploy" in card.inner_text() and "Deploy to production" in card.inner_text()
    assert "risk: high" in card.inner_text() and '"site": "www"' in card.inner_text()
    _shot(alice, "approvals")
    card.locator("input[name=note]").fill("change ticket 42")
    card.locator("button.approve").click()
    outcome = card.locator(".outcome.ok")
    outcome.wait_for()
    assert "execution is now completed" in outcome.inner_text()
    # The list updates itself: the approval moves to the decided ones, with who decided.
    decided = alice.locator(f'#decided [data-approval="{parked[0]}"]')
    decided.wait_for()
    assert "approved by alice" in decided.inner_text()

    execution = httpx.get(f"{service}/v1/approvals/{parked[0]}",
                          headers={"Authorization": f"Bearer {BOOT}"}).json()["execution_id"]
    alice.goto(f"{service}/console#/executions/{execution}")
    alice.wait_for_selector("#execution-status")
    assert alice.inner_text("#execution-status") == "completed"
    assert "ops.deploy" in alice.inner_text(".timeline") and "Roll back" in alice.inner_text(".actions")
    assert "deployed" in alice.inner_text("#result") and "www" in alice.inner_text(".logs")
    _shot(alice, "execution")
    alice.goto(f"{service}/console#/executions?status=completed")
    alice.wait_for_selector(f'[data-execution="{execution}"]')
    _shot(alice, "executions")


def test_a_second_browser_deciding_late_is_told_who_decided_first(service: str, browser: Any) -> None:
    bob = _sign_in(browser, service, _token(service, "bob", "approvals:decide"))
    carol = _sign_in(browser, service, _token(service, "carol", "approvals:decide"))
    approval = _paused(service, "shop")
    for page in (bob, carol):
        _card(page, approval).locator("button.reject").wait_for()
    carol.evaluate("S.stream.close()")  # carol's view goes stale, as over a slow link
    _card(bob, approval).locator("button.reject").click()
    _card(bob, approval).locator(".outcome.ok").wait_for()
    _card(carol, approval).locator("button.approve").click()
    refusal = _card(carol, approval).locator(".outcome.refused")
    refusal.wait_for()
    assert "Decided elsewhere by bob (rejected)" in refusal.inner_text()


def test_a_token_without_approvals_decide_sees_no_buttons_and_a_forged_post_is_refused(
        service: str, browser: Any) -> None:
    approval = _paused(service, "blog")
    viewer = _sign_in(browser, service, _token(service, "viewer", "execute"))
    card = _card(viewer, approval)
    card.wait_for()
    assert card.locator("button").count() == 0
    assert viewer.locator("#nav a").all_inner_texts() == ["Approvals", "Executions"]
    status = viewer.evaluate(
        """async (id) => (await fetch(`/v1/approvals/${id}/approve`, {method: 'POST',
             headers: {'Content-Type': 'application/json', 'X-CSRF-Token': S.session.csrf},
             body: '{}'})).status""", approval)
    assert status == 403
    assert httpx.get(f"{service}/v1/approvals/{approval}",
                     headers={"Authorization": f"Bearer {BOOT}"}).json()["status"] == "pending"


def test_a_request_without_the_csrf_token_is_refused(service: str, browser: Any) -> None:
    approval = _paused(service, "docs")
    page = _sign_in(browser, service, _token(service, "dave", "approvals:decide"))
    answer = page.evaluate(
        """async (id) => { const r = await fetch(`/v1/approvals/${id}/approve`, {method: 'POST',
             headers: {'Content-Type': 'application/json'}, body: '{}'});
             return [r.status, (await r.json()).error.message]; }""", approval)
    assert answer[0] == 403 and "CSRF" in answer[1]
    assert httpx.get(f"{service}/v1/approvals/{approval}",
                     headers={"Authorization": f"Bearer {BOOT}"}).json()["status"] == "pending"


def test_the_workspace_viewer_shows_text_with_line_numbers_images_and_binary_sizes(
        service: str, browser: Any) -> None:
    admin = {"Authorization": f"Bearer {BOOT}"}
    png = _one_pixel_png()
    for path, data in (("notes/readme.txt", b"first line\nsecond line\n"), ("pixel.png", png),
                       ("blob.bin", bytes(range(256)))):
        httpx.put(f"{service}/v1/workspaces/viewer/files/{path}", content=data,
                  headers=admin).raise_for_status()
    page = _sign_in(browser, service, _token(service, "erin", "workspaces:read"))
    page.goto(f"{service}/console#/workspaces/viewer")
    page.click("a.dir")
    page.click('a.file[data-path="/notes/readme.txt"]')
    page.wait_for_selector("#viewer .lines")
    assert page.locator("#viewer .ln").all_inner_texts()[:2] == ["1", "2"]
    assert "second line" in page.inner_text("#viewer")
    _shot(page, "workspace")
    page.click('a.file[data-path="/pixel.png"]')
    page.wait_for_selector("#viewer img.preview")
    assert page.evaluate("document.querySelector('#viewer img').naturalWidth") == 1
    page.click('a.file[data-path="/blob.bin"]')
    page.wait_for_selector("#viewer .binary")
    assert "256 bytes" in page.inner_text("#viewer .binary")


def test_a_page_left_before_its_data_came_does_not_draw_over_the_next(
        service: str, browser: Any) -> None:
    """The first page's request is held until the next page is drawn: its late answer must
    not replace the page the user went on to (it did, now and then, in CI)."""
    httpx.put(f"{service}/v1/workspaces/racing/files/d/x.txt", content=b"x\n",
              headers={"Authorization": f"Bearer {BOOT}"}).raise_for_status()
    page = browser.new_context().new_page()
    held: list[Any] = []
    page.route("**/v1/workspaces", lambda route: held.append(route))  # this token's first page
    page.goto(f"{service}/console")
    page.fill("input[name=token]", _token(service, "gina", "workspaces:read"))
    page.click("button[type=submit]")
    page.wait_for_selector("#whoami:not(:empty)")
    page.goto(f"{service}/console#/workspaces/racing")
    page.wait_for_selector("a.dir")
    assert len(held) == 1
    with page.expect_response("**/v1/workspaces") as late:
        held[0].continue_()
    late.value.finished()
    page.evaluate("() => new Promise((done) => setTimeout(done, 100))")  # its JSON read and drawn
    assert page.locator("a.dir").is_visible() and not page.locator("#workspaces").count()


def test_the_audit_page_shows_a_decision_with_the_approvers_name(
        service: str, service_settings: Settings, browser: Any) -> None:
    approval = _paused(service, "audit")
    page = _sign_in(browser, service, _token(service, "frank", "approvals:decide", "audit:read"))
    _card(page, approval).locator("button.approve").click()
    _card(page, approval).locator(".outcome.ok").wait_for()
    with ThreadPoolExecutor(1) as aside:  # Playwright's own loop runs in this thread
        aside.submit(asyncio.run, _checkpoint(service_settings)).result()
    page.goto(f"{service}/console#/audit?event=approval.decided&principal=frank")
    page.wait_for_selector("#verify.ok")
    row = page.locator("#audit tr[data-seq]").first
    row.wait_for()
    assert "approval.decided" in row.inner_text() and "frank" in row.inner_text()
    assert approval in row.inner_text()
    assert page.inner_text("#audit-pager") == ""  # one page: nothing older
    signed = httpx.get(f"{service}/v1/audit/verify", headers={"Authorization": f"Bearer {BOOT}"}).json()
    assert f"last checkpoint at seq {signed['last_checkpoint']['seq']}, " in page.inner_text("#verify")
    _shot(page, "audit")


async def _checkpoint(settings: Settings) -> None:
    """Sign a checkpoint now, as ``sandbox audit checkpoint`` does beside the running service."""
    log = await AuditLog.open(settings.database_path, key_file=settings.audit_key_path,
                              checkpoints_file=settings.audit_checkpoints_path)
    try:
        await log.checkpoint()
    finally:
        await log.close()


def test_the_consoles_export_is_the_signed_one_that_verifies_offline(
        service: str, service_settings: Settings, browser: Any, tmp_path: Path) -> None:
    page = _sign_in(browser, service, BOOT)
    page.goto(f"{service}/console#/audit")
    page.wait_for_selector("#audit tr[data-seq]")
    with page.expect_download() as download:
        page.click("#export")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name.startswith("audit-export-all-") and saved.suffix == ".tar"
    report = verify_export(saved, VerifyKey.load(Path(f"{service_settings.audit_key_path}.pub")))
    shown = int(page.locator("#audit tr[data-seq]").first.get_attribute("data-seq") or 0)
    assert report.ok and report.count >= shown, report


def test_the_executions_list_pages_newest_first_keeping_its_filters(service: str, browser: Any) -> None:
    made = [httpx.post(f"{service}/v1/execute", headers={"Authorization": f"Bearer {BOOT}"},
                       timeout=60, json={"code": str(n), "workspace": "paging"}).json()["execution_id"]
            for n in range(3)]
    page = _sign_in(browser, service, BOOT)
    page.goto(f"{service}/console#/executions?workspace=paging&limit=2")
    page.wait_for_selector("[data-execution]")
    rows = lambda: [r.get_attribute("data-execution") for r in page.locator("[data-execution]").all()]  # noqa: E731
    assert rows() == [made[2], made[1]]
    page.click("#executions-pager a.older")
    page.wait_for_selector(f'[data-execution="{made[0]}"]')
    assert rows() == [made[0]] and page.locator("#executions-pager a.older").count() == 0
    assert page.inner_text("#executions-pager") == "« Newest"
    assert page.input_value("#execution-filters input[name=workspace]") == "paging"
    page.click("#executions-pager a.newest")
    page.wait_for_selector(f'[data-execution="{made[2]}"]')
    assert rows() == [made[2], made[1]]


def test_a_tampered_audit_log_shows_the_first_bad_seq(compiled_guest: CompiledGuest, tmp_path: Path,
                                                      browser: Any) -> None:
    settings = Settings(data_dir=tmp_path, workers=1, guest=compiled_guest, token=BOOT,
                        sweep_interval_s=0)
    with ServerThread(create_app(settings)) as live:
        for name in ("one", "two", "three"):
            _token(live.url, name, "execute")  # each creation is an audit entry
        attacker(settings.database_path).execute(
            "UPDATE audit_log SET principal = 'someone-else' WHERE seq = 2")
        page = _sign_in(browser, live.url, BOOT)
        page.goto(f"{live.url}/console#/audit")
        page.wait_for_selector("#verify.bad")
        assert page.inner_text("#bad-seq") == "2"
        page.wait_for_selector("#audit tr.bad")
        assert page.locator("#audit tr.bad").get_attribute("data-seq") == "2"


def test_the_execution_page_shows_its_traced_spans_as_a_timeline(
        compiled_guest: CompiledGuest, tmp_path: Path, browser: Any) -> None:
    settings = Settings(data_dir=tmp_path, workers=1, guest=compiled_guest, token=BOOT,
                        sweep_interval_s=0, span_exporter=InMemorySpanExporter())
    admin = {"Authorization": f"Bearer {BOOT}"}
    site = {"type": "object", "properties": {"site": {"type": "string"}}, "required": ["site"]}
    with ServerThread(DeployEndpoint()) as tool, ServerThread(create_app(settings)) as live:
        httpx.put(f"{live.url}/v1/toolsets/ops", headers=admin, timeout=60, json={"tools": [
            {"name": "check", "description": "Check a site.", "url": tool.url, "input_schema": site},
            {"name": "deploy", "description": "Deploy a site.", "url": tool.url, "input_schema": site,
             "approval": {"mode": "durable", "summary": "Deploy", "risk": "high"}}]}).raise_for_status()
        code = 'ops.check(site="www")\nops.check(site="shop")\nops.deploy(site="www")'
        parked = httpx.post(f"{live.url}/v1/execute", headers=admin, timeout=60,
                            json={"code": code, "toolsets": ["ops"]}).json()
        approval = parked["pending"][0]["approval_id"]
        httpx.post(f"{live.url}/v1/approvals/{approval}/approve", headers=admin, timeout=60,
                   json={}).raise_for_status()
        page = _sign_in(browser, live.url, BOOT)
        page.goto(f"{live.url}/console#/executions/{parked['execution_id']}")
        page.wait_for_selector("#trace [data-span]")
        names = page.eval_on_selector_all("#trace [data-span]", "rows => rows.map(r => r.dataset.name)")
        for expected in ("codemode.execution", "sandbox.worker.wait", "sandbox.isolate.instantiate",
                         "sandbox.guest.run", "codemode.host_call", "codemode.approval.decided"):
            assert expected in names, names
        text = page.inner_text("#trace")
        assert "ops.check #0 (applied)" in text and "ops.check #1 (applied)" in text
        assert "ops.deploy #2 (pending)" in text and "ops.deploy #2 (applied)" in text
        assert "2 traces, as tracing recorded them" in page.inner_text("#trace-source")
        if SHOTS:
            page.locator("#trace").screenshot(path=str(Path(SHOTS) / "console-trace.png"))


def test_signing_out_returns_to_the_sign_in_page_for_good(service: str, browser: Any) -> None:
    page = _sign_in(browser, service, BOOT)
    page.click("#logout button")
    page.wait_for_url("**/console/login")
    page.goto(f"{service}/console")
    assert page.url.endswith("/console/login")


def test_docs_and_redoc_render_with_the_network_off(service: str, browser: Any) -> None:
    context = browser.new_context()
    elsewhere: list[str] = []

    def only_the_service(route: Any) -> None:
        if route.request.url.startswith(service):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_service)
    page = context.new_page()
    page.goto(f"{service}/docs")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "wasm-sandbox" in page.inner_text(".swagger-ui .info .title")
    page.wait_for_selector(".opblock-tag")
    page.goto(f"{service}/redoc")
    page.wait_for_selector(".api-content h1")
    assert "wasm-sandbox" in page.inner_text(".api-content h1")
    assert elsewhere == []
    context.close()
