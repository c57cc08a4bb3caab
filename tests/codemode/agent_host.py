"""A real agent host for tests: an HTTP tool endpoint that verifies signatures and keeps
side effects by idempotency key (serve it with ``ServerThread``).

Tools it answers (the ``tool`` field of the signed call):

- ``create_item {title}``: the side effect. Creates one item per idempotency key: a repeated
  key returns the item it created before, without a new effect (a cooperating endpoint).
- ``list_items {}``: the items now. ``get_bytes {}``: bytes-like output (base64 text).
- ``fail {}``: a tool error. ``slow {seconds}``: sleeps, then answers.
- ``attach {count, valid}``: output plus ``count`` attachments (invalid ones if not ``valid``).
- reverts (``"action": "revert"``): deletes the item the call created.

``effects`` counts real side effects per idempotency key; ``calls`` keeps every request.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any


from codemode import verify_signature
from live_server import ServerThread, free_port, read_body, send_json, serve_lifespan

__all__ = ["AgentHost", "ServerThread", "free_port"]


class AgentHost:
    """The ASGI tool endpoint described in the module docstring."""

    def __init__(self, secrets: list[str] | None = None) -> None:
        self.secrets: list[str] = list(secrets or [])
        self.calls: list[dict[str, Any]] = []
        self.effects: dict[str, int] = {}
        self.items: dict[str, dict[str, Any]] = {}
        self.reverts: list[dict[str, Any]] = []
        self.bad_signatures = 0
        self._lock = threading.Lock()

    def tools(self, url: str, **extra: dict[str, Any]) -> list[dict[str, Any]]:
        """Tool definitions pointing at this host; ``extra[name]`` adds fields to one tool."""
        obj: dict[str, Any] = {"type": "object"}
        defs: list[dict[str, Any]] = [
            {"name": "create_item", "description": "Create an item.", "url": url,
             "revert_url": url,
             "input_schema": {**obj, "properties": {"title": {"type": "string"}},
                              "required": ["title"]}},
            {"name": "list_items", "description": "List the items.", "url": url,
             "input_schema": obj},
            {"name": "fail", "description": "Always fails.", "url": url, "input_schema": obj},
            {"name": "slow", "description": "Sleeps.", "url": url,
             "input_schema": {**obj, "properties": {"seconds": {"type": "number"}}}},
            {"name": "attach", "description": "Answers with attachments.", "url": url,
             "input_schema": {**obj, "properties": {"count": {"type": "integer"},
                                                    "valid": {"type": "boolean"}}}},
        ]
        for tool in defs:
            tool.update(extra.get(tool["name"], {}))
        return defs

    def effect_count(self) -> int:
        return sum(self.effects.values())

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        body = await read_body(receive)
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        if not self._verified(headers, body):
            self.bad_signatures += 1
            await send_json(send, 401, {"error": {"name": "Unauthorized", "message": "bad signature"}})
            return
        call = json.loads(body)
        with self._lock:
            self.calls.append(call)
        if call.get("action") == "revert":
            await send_json(send, 200, self._revert(call))
            return
        tool, data, key = call["tool"], call["input"], call["idempotency_key"]
        if tool == "slow":
            await asyncio.sleep(float(data.get("seconds", 0.5)))
            answer: dict[str, Any] = {"output": "slept"}
        elif tool == "create_item":
            answer = {"output": self._create(key, data)}
        elif tool == "list_items":
            with self._lock:
                answer = {"output": sorted(i["title"] for i in self.items.values())}
        elif tool == "attach":
            count = int(data.get("count", 2))
            items = [{"type": "image", "n": n} if data.get("valid", True) else {"n": n}
                     for n in range(count)]
            answer = {"output": {"attached": count}, "attachments": items}
        elif tool == "fail":
            answer = {"error": {"name": "ConnectorError", "message": "action failed"}}
        else:
            answer = {"error": {"name": "NotFound", "message": f"no tool {tool}"}}
        await send_json(send, 200, answer)

    def _verified(self, headers: dict[str, str], body: bytes) -> bool:
        for secret in self.secrets:
            try:
                verify_signature(secret, headers.get("x-sandbox-timestamp", ""), body,
                                 headers.get("x-sandbox-signature", ""))
                return True
            except Exception:
                continue
        return False

    def _create(self, key: str, data: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            if key in self.items:  # a retry or replay of one step: no second effect
                return self.items[key]
            self.effects[key] = self.effects.get(key, 0) + 1
            item = {"id": len(self.items) + 1, "title": data["title"]}
            self.items[key] = item
            return item

    def _revert(self, call: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            self.reverts.append(call)
            self.items.pop(call["idempotency_key"], None)
        return {"reverted": True}
