"""The hostile corpus's runner: load the cases kept as data (``tests/hostile/*.toml``), send
each to a live service, and judge the outcome by the case's predicate and by the invariants
every case shares.

A case file names its ``area`` and holds ``[[case]]`` tables::

    [[case]]
    id = "hf-open-etc-passwd"                 # unique across the corpus
    tries = "read /etc/passwd from Python"    # what the hostile program attempts
    execute = "open('/etc/passwd').read()"    # or bash = "...", or http = {...}
    body = {timeout_ms = 2000}                # optional: more fields of the request body
    expect = "o.status == 'error' and o.error == 'FileNotFoundError'"
    then = {execute = "..."}                  # optional: a second request, seen as o.then
    probe = true                              # optional: poll /healthz while it runs
    xfail = "issue 12 finding 3: ..."         # optional: a known open finding (strict)

``expect`` is a Python expression over ``o`` (an ``Outcome``) that must be true. ``http`` is
``{method, path, headers?, content?, json?, times?, pad_header?, chunked?, auth?}``: the
content repeated ``times`` times, a header of ``pad_header`` bytes, a chunked body, and the
bearer token left out with ``auth = false``. In any string, ``@WS@`` is the case's own
workspace, ``@SENTINEL@`` a host file holding a secret, ``@DATA_DIR@`` the service's data
directory, ``@CANARY_ENV@`` the name of a host environment variable holding a secret,
``@PORT@`` a host TCP port that counts connections (``o.connections``), ``@LONG@`` 100,000
letters and ``@PAD_1MB@`` Python source just over the 1,000,000-byte code limit. Besides ``o``, a
predicate may call ``host_exists(path)``, ``host_read(path)`` (bytes, b"" if missing) and
``host_mode(path)`` (permission bits).

Every case also holds to the invariants of the sandbox: no response carries the host
file's secret or the host environment's, the host file is unchanged, and ``/healthz``
answers afterwards.
"""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import httpx

HERE = Path(__file__).resolve().parent
AREAS = ("host_files", "writes", "network", "processes", "environment", "exhaustion",
         "crashes", "leakage", "http")
REQUEST_KINDS = ("execute", "bash", "http")
CASE_KEYS = frozenset({"id", "tries", "expect", "body", "then", "probe", "xfail", *REQUEST_KINDS})
HTTP_KEYS = frozenset({"method", "path", "headers", "content", "json", "times", "pad_header",
                       "chunked", "auth"})
TIMEOUT_S = 120.0


@dataclass(frozen=True)
class Case:
    id: str
    area: str
    tries: str
    request: dict[str, Any]
    expect: str
    then: dict[str, Any] | None = None
    probe: bool = False
    xfail: str | None = None


class CorpusError(Exception):
    """A case file that does not follow the format above."""


def _request_of(table: dict[str, Any], where: str) -> dict[str, Any]:
    kinds = [k for k in REQUEST_KINDS if k in table]
    if len(kinds) != 1:
        raise CorpusError(f"{where}: give exactly one of {', '.join(REQUEST_KINDS)}")
    request = {"kind": kinds[0], "value": table[kinds[0]], "body": dict(table.get("body", {}))}
    if kinds[0] == "http":
        if not isinstance(request["value"], dict) or set(request["value"]) - HTTP_KEYS:
            raise CorpusError(f"{where}: http takes {sorted(HTTP_KEYS)}")
    elif not isinstance(request["value"], str):
        raise CorpusError(f"{where}: {kinds[0]} must be a string")
    return request


def load_cases(directory: Path = HERE) -> list[Case]:
    """Every case of every ``*.toml`` file in ``directory`` (CorpusError on a malformed one)."""
    cases: list[Case] = []
    for path in sorted(directory.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        area = data.get("area")
        if area not in AREAS:
            raise CorpusError(f"{path.name}: area {area!r} is not one of {AREAS}")
        for table in data.get("case", []):
            where = f"{path.name}: {table.get('id', '?')}"
            if set(table) - CASE_KEYS or not {"id", "tries", "expect"} <= set(table):
                raise CorpusError(f"{where}: keys {sorted(table)}; allowed {sorted(CASE_KEYS)}")
            compile(table["expect"], where, "eval")
            then = _request_of(table["then"], where + " (then)") if "then" in table else None
            cases.append(Case(table["id"], area, table["tries"], _request_of(table, where),
                              table["expect"], then, bool(table.get("probe")), table.get("xfail")))
    ids = [c.id for c in cases]
    if len(ids) != len(set(ids)):
        raise CorpusError(f"duplicate ids: {sorted({i for i in ids if ids.count(i) > 1})}")
    return cases


@dataclass
class Outcome:
    """What a case's request got back; ``expect`` reads these."""

    http: int
    text: str
    seconds: float
    json: Any = None
    then: "Outcome | None" = None
    health_worst_s: float = 0.0
    """The slowest ``/healthz`` answer while the request ran (with ``probe``)."""
    health_failures: int = 0
    connections: int = 0
    """Connections the host's listening port (``@PORT@``) accepted meanwhile."""

    def _get(self, key: str) -> Any:
        return self.json.get(key) if isinstance(self.json, dict) else None

    @property
    def status(self) -> Any:
        return self._get("status")

    @property
    def result(self) -> Any:
        return self._get("result")

    @property
    def logs(self) -> list[Any]:
        return self._get("logs") or []

    @property
    def log(self) -> str:
        return "\n".join(str(line) for line in self.logs)

    @property
    def error(self) -> Any:
        error = self._get("error")
        return error.get("name") if isinstance(error, dict) else None

    @property
    def message(self) -> str:
        error = self._get("error")
        return str(error.get("message", "")) if isinstance(error, dict) else ""

    @property
    def code(self) -> Any:
        """The ``code`` of a 4xx error body (``{"error": {"code", "message"}}``)."""
        error = self._get("error")
        return error.get("code") if isinstance(error, dict) else None

    @property
    def trap(self) -> Any:
        trap = self._get("trap")
        return trap.get("kind") if isinstance(trap, dict) else None

    @property
    def stdout(self) -> str:
        return str(self._get("stdout") or "")

    @property
    def stderr(self) -> str:
        return str(self._get("stderr") or "")

    @property
    def exit_code(self) -> Any:
        return self._get("exit_code")

    @property
    def created(self) -> list[str]:
        changed = self._get("changed_files") or {}
        return list(changed.get("created", [])) if isinstance(changed, dict) else []

    @property
    def is_4xx_json(self) -> bool:
        """A client error in the one error shape: 4xx with ``{"error": {"code", "message"}}``."""
        return 400 <= self.http < 500 and self.code is not None

    def texts(self) -> Iterator[str]:
        yield self.text
        if self.then is not None:
            yield from self.then.texts()


class Listener:
    """A host TCP port that accepts and counts connections; no guest may ever reach it."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = int(self.sock.getsockname()[1])
        self.count = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.count += 1
            conn.close()

    def close(self) -> None:
        self.sock.close()


@dataclass
class Context:
    """The live service and the host-side secrets the corpus must never reach."""

    url: str
    token: str
    sentinel: Path
    secret: str
    data_dir: Path
    canary_env: str
    canary_value: str
    listener: Listener | None = None
    workspace_prefix: str = "h"
    sentinel_bytes: bytes = field(init=False, default=b"")

    def __post_init__(self) -> None:
        self.sentinel_bytes = self.sentinel.read_bytes()

    def fill(self, value: Any, case_id: str) -> Any:
        """``value`` with the ``@...@`` placeholders replaced, in strings at any depth."""
        if isinstance(value, str):
            ws = self.workspace_prefix + "-" + re.sub(r"[^a-z0-9-]", "-", case_id.lower())
            return (value.replace("@WS@", ws).replace("@SENTINEL@", str(self.sentinel))
                    .replace("@DATA_DIR@", str(self.data_dir))
                    .replace("@CANARY_ENV@", self.canary_env)
                    .replace("@PORT@", str(self.listener.port if self.listener else 9))
                    .replace("@LONG@", "a" * 60_000)
                    .replace("@PAD_1MB@", "x = 1\n" + "#" * 1_000_001))
        if isinstance(value, dict):
            return {k: self.fill(v, case_id) for k, v in value.items()}
        if isinstance(value, list):
            return [self.fill(v, case_id) for v in value]
        return value


def _chunks(content: bytes, times: int) -> Iterator[bytes]:
    for _ in range(times):
        yield content


def send(client: httpx.Client, ctx: Context, request: dict[str, Any], case_id: str) -> Outcome:
    """Send one request of a case; a connection the service drops is status 0."""
    auth = {"authorization": f"Bearer {ctx.token}"}
    kind, value = request["kind"], ctx.fill(request["value"], case_id)
    body = ctx.fill(request["body"], case_id)
    started = time.monotonic()
    try:
        if kind in ("execute", "bash"):
            payload = {("code" if kind == "execute" else "script"): value, **body}
            answer = client.post(f"/v1/{kind}", json=payload, headers=auth)
        else:
            headers = dict(value.get("headers", {}))
            if value.get("auth", True):
                headers.update(auth)
            if value.get("pad_header"):
                headers["x-pad"] = "a" * int(value["pad_header"])
            content: Any = None
            if "json" in value:
                content = json.dumps(value["json"]).encode()
                headers.setdefault("content-type", "application/json")
            elif "content" in value:
                content = str(value["content"]).encode("utf-8", "surrogatepass")
            if content is not None and value.get("times"):
                if value.get("chunked"):
                    content = _chunks(content, int(value["times"]))
                else:
                    content = content * int(value["times"])
            answer = client.request(value.get("method", "GET"), value["path"],
                                    content=content, headers=headers)
    except httpx.TransportError as exc:
        return Outcome(0, f"{type(exc).__name__}: {exc}", time.monotonic() - started)
    try:
        parsed = answer.json()
    except ValueError:
        parsed = None
    return Outcome(answer.status_code, answer.text, time.monotonic() - started, parsed)


def _probe(ctx: Context, stop: threading.Event, worst: list[float], failures: list[int]) -> None:
    with httpx.Client(base_url=ctx.url, timeout=60) as client:
        while not stop.is_set():
            started = time.monotonic()
            try:
                ok = client.get("/healthz").status_code == 200
            except httpx.HTTPError:
                ok = False
            worst[0] = max(worst[0], time.monotonic() - started)
            failures[0] += 0 if ok else 1
            stop.wait(0.1)


def run_case(ctx: Context, case: Case) -> Outcome:
    """Send the case (and its ``then``), probing ``/healthz`` meanwhile if it asks."""
    before = ctx.listener.count if ctx.listener else 0
    with httpx.Client(base_url=ctx.url, timeout=TIMEOUT_S) as client:
        stop, worst, failures = threading.Event(), [0.0], [0]
        prober = threading.Thread(target=_probe, args=(ctx, stop, worst, failures), daemon=True)
        if case.probe:
            prober.start()
            time.sleep(0.2)
        try:
            outcome = send(client, ctx, case.request, case.id)
        finally:
            stop.set()
            if case.probe:
                prober.join(timeout=TIMEOUT_S)
        outcome.health_worst_s, outcome.health_failures = worst[0], failures[0]
    if case.then is not None:  # a connection of its own: the first may have been closed
        with httpx.Client(base_url=ctx.url, timeout=TIMEOUT_S) as client:
            outcome.then = send(client, ctx, case.then, case.id)
    outcome.connections = (ctx.listener.count if ctx.listener else 0) - before
    return outcome


def host_read(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return b""


def judge(ctx: Context, case: Case, outcome: Outcome) -> list[str]:
    """What is wrong with ``outcome``: the case's predicate, then the shared invariants."""
    problems = []
    try:
        names = {"__builtins__": __builtins__, "re": re, "host_exists": os.path.lexists,
                 "host_read": host_read, "host_mode": lambda p: os.stat(p).st_mode & 0o777}
        held = eval(ctx.fill(case.expect, case.id), names, {"o": outcome})
    except Exception as exc:  # a predicate that cannot be evaluated has not held
        problems.append(f"expect raised {type(exc).__name__}: {exc}")
    else:
        if not held:
            problems.append(f"expect does not hold: {case.expect}")
    for text in outcome.texts():
        if ctx.secret in text:
            problems.append("a response carries the host file's secret")
        if ctx.canary_value in text:
            problems.append("a response carries the host environment's secret")
    if ctx.sentinel.read_bytes() != ctx.sentinel_bytes:
        problems.append(f"the host file {ctx.sentinel} changed")
    try:
        healthy = httpx.get(f"{ctx.url}/healthz", timeout=TIMEOUT_S).status_code == 200
    except httpx.HTTPError:
        healthy = False
    if not healthy:
        problems.append("/healthz does not answer after the case")
    return problems


def describe(case: Case, outcome: Outcome, problems: list[str]) -> str:
    lines = [f"{case.id} ({case.area}): {case.tries}", *problems,
             f"HTTP {outcome.http} in {outcome.seconds:.2f} s: {outcome.text[:1500]}"]
    if outcome.then is not None:
        lines.append(f"then: HTTP {outcome.then.http}: {outcome.then.text[:800]}")
    return "\n".join(lines)
