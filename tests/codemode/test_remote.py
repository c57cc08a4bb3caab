"""Remote tool calls against a real local HTTP server that verifies every signature."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import uvicorn

from codemode.errors import (
    CodeModeError,
    SignatureMismatch,
    StaleSignature,
    ToolArgumentsError,
    ToolCallError,
    ToolConnectionError,
    ToolError,
    ToolHTTPStatusError,
    ToolResponseNotJSON,
    ToolResponseShapeError,
    ToolResponseTooLarge,
    ToolTimeoutError,
)
from codemode.remote import (
    MAX_ATTACHMENT_BYTES,
    MAX_ATTACHMENTS_PER_REPLY,
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    ToolReply,
    call_remote_revert,
    call_remote_tool,
    call_remote_tool_reply,
    request_body,
    sign,
    verify_signature,
)
from codemode.tooldefs import ToolDef, Toolset

SECRET = "s3cret-for-tests-only-0123456789"

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass
class AgentHost:
    """A tiny ASGI agent host: verifies the HMAC, counts calls, answers per path."""

    secret: str = SECRET
    calls: list[dict[str, Any]] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)
    base_url: str = ""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        try:
            verify_signature(
                self.secret,
                headers.get(TIMESTAMP_HEADER.lower(), ""),
                body,
                headers.get(SIGNATURE_HEADER.lower(), ""),
            )
        except (SignatureMismatch, StaleSignature) as exc:
            self.rejected.append(type(exc).__name__)
            await _respond(send, 401, json.dumps({"detail": str(exc)}).encode())
            return
        request = json.loads(body)
        self.calls.append(
            {"path": scope["path"], "body": request, "headers": headers, "raw": body}
        )
        await self.answer(scope["path"], request, headers, send)

    async def answer(
        self, path: str, request: dict[str, Any], headers: dict[str, str], send: Send
    ) -> None:
        if path == "/echo":
            payload = {"output": {"input": request["input"], "api_key": headers.get("x-api-key")}}
            await _respond(send, 200, json.dumps(payload).encode())
        elif path == "/fails":
            error = {"error": {"name": "CityNotFound", "message": "no such city: Atlantis"}}
            await _respond(send, 200, json.dumps(error).encode())
        elif path == "/null":
            await _respond(send, 200, b'{"output": null}')
        elif path == "/500":
            await _respond(send, 500, b"database exploded")
        elif path == "/text":
            await _respond(send, 200, b"<html>not json</html>", "text/html")
        elif path == "/shape":
            await _respond(send, 200, b'{"result": 1}')
        elif path == "/list":
            await _respond(send, 200, b"[1, 2]")
        elif path == "/bad-error":
            await _respond(send, 200, b'{"error": "just a string"}')
        elif path == "/slow":
            await asyncio.sleep(1.5)
            await _respond(send, 200, b'{"output": "late"}')
        elif path == "/big":
            await _respond(send, 200, b'{"output": "' + b"x" * 200_000 + b'"}')
        elif path == "/attach":
            # The test passes the attachments value as raw JSON text, so it can send shapes
            # (NaN, non-lists) that a Python dict could not express.
            raw = request["input"]["raw"].encode()
            await _respond(send, 200, b'{"output": {"temp": 21}, "attachments": ' + raw + b"}")
        elif path == "/fails-with-attachments":
            reply = {
                "error": {"name": "Declined", "message": "card declined"},
                "attachments": [{"type": "receipt"}],
            }
            await _respond(send, 200, json.dumps(reply).encode())
        elif path == "/revert-output":
            payload = {"output": {"undone": request["idempotency_key"]}}
            await _respond(send, 200, json.dumps(payload).encode())
        elif path == "/revert-true":
            await _respond(send, 200, b'{"reverted": true}')
        elif path == "/revert-false":
            await _respond(send, 200, b'{"reverted": false}')
        elif path == "/revert-odd":
            await _respond(send, 200, b'{"reverted": "yes"}')
        elif path == "/revert-error":
            error = {"error": {"name": "AlreadyShipped", "message": "order 7 has shipped"}}
            await _respond(send, 200, json.dumps(error).encode())
        elif path == "/redirect":
            await send(
                {
                    "type": "http.response.start",
                    "status": 307,
                    "headers": [(b"location", b"/echo"), (b"content-length", b"0")],
                }
            )
            await send({"type": "http.response.body", "body": b""})
        else:
            await _respond(send, 404, b"unknown path")


async def _respond(send: Send, status: int, body: bytes, ctype: str = "application/json") -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", ctype.encode()),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


@pytest.fixture(scope="module")
def agent_host() -> Iterator[AgentHost]:
    host = AgentHost()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        host,
        lifespan="off",
        ws="none",
        http="h11",
        log_level="error",
        access_log=False,
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test agent host did not start")
        time.sleep(0.01)
    host.base_url = f"http://127.0.0.1:{port}"
    yield host
    server.should_exit = True
    thread.join(timeout=10)
    sock.close()


@pytest.fixture
def host(agent_host: AgentHost) -> AgentHost:
    agent_host.calls.clear()
    agent_host.rejected.clear()
    agent_host.secret = SECRET
    return agent_host


def _tool(host: AgentHost, path: str, **extra: Any) -> ToolDef:
    return ToolDef(
        name="get-weather",
        description="Weather",
        input_schema={"type": "object", "properties": {"city": {"type": "string"}}},
        url=host.base_url + path,
        **extra,
    )


async def _call(tool: ToolDef, args: dict[str, Any] | None = None, **extra: Any) -> Any:
    return await call_remote_tool(
        tool,
        args if args is not None else {"city": "Paris"},
        secret=extra.pop("secret", SECRET),
        execution_id="exec_1",
        seq=extra.pop("seq", 3),
        **extra,
    )


async def test_output_is_returned_and_server_verified_signature(host: AgentHost) -> None:
    result = await _call(_tool(host, "/echo"), {"city": "Paris"})
    assert result == {"input": {"city": "Paris"}, "api_key": None}
    assert host.rejected == []
    assert len(host.calls) == 1


async def test_request_body_carries_tool_input_execution_seq_and_idempotency_key(
    host: AgentHost,
) -> None:
    await _call(_tool(host, "/echo"), {"city": "Oslo"}, seq=7)
    assert host.calls[0]["body"] == {
        "tool": "get-weather",
        "input": {"city": "Oslo"},
        "execution_id": "exec_1",
        "seq": 7,
        "idempotency_key": "exec_1:7",
    }


async def test_explicit_idempotency_key_is_sent(host: AgentHost) -> None:
    await _call(_tool(host, "/echo"), idempotency_key="order-42")
    assert host.calls[0]["body"]["idempotency_key"] == "order-42"


async def test_tool_headers_are_sent_with_the_call(host: AgentHost) -> None:
    result = await _call(_tool(host, "/echo", headers={"X-Api-Key": "k-123"}))
    assert result["api_key"] == "k-123"


async def test_wrong_secret_is_rejected_by_agent_host_as_http_401(host: AgentHost) -> None:
    with pytest.raises(ToolHTTPStatusError) as caught:
        await _call(_tool(host, "/echo"), secret="not-the-toolset-secret-at-all")
    assert caught.value.status_code == 401
    assert host.rejected == ["SignatureMismatch"]
    assert host.calls == []


async def test_old_timestamp_is_rejected_as_replay(host: AgentHost) -> None:
    with pytest.raises(ToolHTTPStatusError) as caught:
        await _call(_tool(host, "/echo"), clock=lambda: time.time() - 3600)
    assert caught.value.status_code == 401
    assert host.rejected == ["StaleSignature"]


async def test_error_response_becomes_tool_error_with_name_and_message(host: AgentHost) -> None:
    with pytest.raises(ToolError) as caught:
        await _call(_tool(host, "/fails"))
    assert caught.value.name == "CityNotFound"
    assert caught.value.message == "no such city: Atlantis"


async def test_null_output_is_a_valid_answer(host: AgentHost) -> None:
    assert await _call(_tool(host, "/null")) is None


async def test_non_2xx_status_is_http_status_error_with_body_preview(host: AgentHost) -> None:
    with pytest.raises(ToolHTTPStatusError) as caught:
        await _call(_tool(host, "/500"))
    assert caught.value.status_code == 500
    assert "database exploded" in str(caught.value)


async def test_redirect_is_not_followed(host: AgentHost) -> None:
    with pytest.raises(ToolHTTPStatusError) as caught:
        await _call(_tool(host, "/redirect"))
    assert caught.value.status_code == 307
    assert [c["path"] for c in host.calls] == ["/redirect"]


async def test_non_json_body_is_not_json_error(host: AgentHost) -> None:
    with pytest.raises(ToolResponseNotJSON, match="not json"):
        await _call(_tool(host, "/text"))


@pytest.mark.parametrize("path", ["/shape", "/list", "/bad-error"])
async def test_json_of_the_wrong_shape_is_shape_error(host: AgentHost, path: str) -> None:
    with pytest.raises(ToolResponseShapeError):
        await _call(_tool(host, path))


async def test_slow_endpoint_times_out_after_timeout_ms(host: AgentHost) -> None:
    started = time.monotonic()
    with pytest.raises(ToolTimeoutError) as caught:
        await _call(_tool(host, "/slow", timeout_ms=200))
    assert caught.value.timeout_ms == 200
    assert time.monotonic() - started < 1.5


async def test_oversized_response_is_refused(host: AgentHost) -> None:
    with pytest.raises(ToolResponseTooLarge):
        await _call(_tool(host, "/big"), max_response_bytes=10_000)


async def test_large_response_within_cap_is_returned(host: AgentHost) -> None:
    assert len(await _call(_tool(host, "/big"))) == 200_000


async def test_connection_refused_is_connection_error() -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens here now
    tool = ToolDef(name="t", url=f"http://127.0.0.1:{port}/x", timeout_ms=2000)
    with pytest.raises(ToolConnectionError) as caught:
        await _call(tool, {})
    assert caught.value.url.endswith("/x")


async def test_shared_client_is_reused_and_left_open(host: AgentHost) -> None:
    async with httpx.AsyncClient() as client:
        first = await _call(_tool(host, "/echo"), client=client)
        second = await _call(_tool(host, "/echo"), client=client)
        assert first == second
        assert not client.is_closed
    assert len(host.calls) == 2


async def test_toolset_secret_signs_calls_end_to_end(host: AgentHost) -> None:
    toolset = Toolset.create("weather", [_tool(host, "/echo")])
    host.secret = toolset.secret
    tool = toolset.get("get_weather")
    assert tool is not None
    await _call(tool, secret=toolset.secret)
    assert host.rejected == []


async def test_invalid_arguments_are_rejected_before_anything_is_sent(host: AgentHost) -> None:
    with pytest.raises(ToolArgumentsError, match="city"):
        await _call(_tool(host, "/echo"), {"city": 42})
    assert host.calls == [] and host.rejected == []


async def test_tool_without_url_cannot_be_called_remotely() -> None:
    with pytest.raises(ToolCallError, match="no url"):
        await _call(ToolDef(name="local"), {})


def test_every_call_failure_is_a_code_mode_error() -> None:
    for cls in (
        ToolTimeoutError,
        ToolConnectionError,
        ToolHTTPStatusError,
        ToolResponseNotJSON,
        ToolResponseShapeError,
        ToolResponseTooLarge,
    ):
        assert issubclass(cls, ToolCallError)
    assert issubclass(ToolCallError, CodeModeError)
    assert issubclass(ToolError, CodeModeError)
    assert not issubclass(ToolError, ToolCallError)


# --- verify_signature on its own -----------------------------------------------------------


def test_verify_accepts_fresh_signature() -> None:
    body = b'{"a":1}'
    verify_signature(SECRET, "1000", body, sign(SECRET, 1000, body), now=1100)


def test_verify_rejects_tampered_body() -> None:
    signature = sign(SECRET, 1000, b'{"a":1}')
    with pytest.raises(SignatureMismatch):
        verify_signature(SECRET, 1000, b'{"a":2}', signature, now=1000)


def test_verify_rejects_moved_timestamp() -> None:
    body = b"{}"
    signature = sign(SECRET, 1000, body)
    with pytest.raises(SignatureMismatch):
        verify_signature(SECRET, 1001, body, signature, now=1000)


@pytest.mark.parametrize("now", [1000 + 301, 1000 - 301])
def test_verify_rejects_timestamps_outside_window_either_way(now: int) -> None:
    body = b"{}"
    with pytest.raises(StaleSignature):
        verify_signature(SECRET, 1000, body, sign(SECRET, 1000, body), now=now)


def test_verify_window_is_configurable() -> None:
    body = b"{}"
    verify_signature(SECRET, 1000, body, sign(SECRET, 1000, body), max_skew_s=3600, now=4000)


@pytest.mark.parametrize("timestamp", ["", "abc", "-5", "1e3", "١٠٠٠"])
def test_verify_rejects_malformed_timestamps(timestamp: str) -> None:
    with pytest.raises(SignatureMismatch):
        verify_signature(SECRET, timestamp, b"{}", sign(SECRET, 1000, b"{}"), now=1000)


@pytest.mark.parametrize("signature", ["", "v1=", "deadbeef", "v1=" + "0" * 64])
def test_verify_rejects_missing_or_wrong_signatures(signature: str) -> None:
    with pytest.raises(SignatureMismatch):
        verify_signature(SECRET, 1000, b"{}", signature, now=1000)


def test_verify_accepts_any_of_several_signatures_for_secret_rotation() -> None:
    body = b"{}"
    header = sign("old-secret-0123456789", 1000, body) + "," + sign(SECRET, 1000, body)
    verify_signature(SECRET, 1000, body, header, now=1000)


def test_signature_is_hmac_sha256_over_timestamp_dot_body() -> None:
    import hashlib
    import hmac

    body = request_body(ToolDef(name="t"), {"x": 1}, "e", 0, "e:0")
    expected = hmac.new(SECRET.encode(), b"1234." + body, hashlib.sha256).hexdigest()
    assert sign(SECRET, 1234, body) == "v1=" + expected
    assert body == b'{"tool":"t","input":{"x":1},"execution_id":"e","seq":0,"idempotency_key":"e:0"}'


# --- attachments beside the output ---------------------------------------------------------


async def _reply(host: AgentHost, raw: str) -> ToolReply:
    return await call_remote_tool_reply(
        _tool(host, "/attach"),
        {"city": "Paris", "raw": raw},
        secret=SECRET,
        execution_id="exec_1",
        seq=0,
    )


async def test_two_valid_attachments_are_kept_in_order_and_output_is_unchanged(
    host: AgentHost,
) -> None:
    items = [{"type": "image", "url": "https://x/1.png"}, {"type": "link", "href": "/a"}]
    reply = await _reply(host, json.dumps(items))
    assert reply.attachments == items
    assert reply.rejected_attachments == 0
    assert reply.output == {"temp": 21}


async def test_plain_call_returns_the_same_output_without_the_attachments(
    host: AgentHost,
) -> None:
    raw = json.dumps([{"type": "image"}])
    output = await _call(_tool(host, "/attach"), {"city": "Paris", "raw": raw})
    assert output == {"temp": 21}


async def test_reply_without_attachments_has_none_and_rejects_none(host: AgentHost) -> None:
    reply = await call_remote_tool_reply(
        _tool(host, "/echo"), {"city": "Rome"}, secret=SECRET, execution_id="e", seq=0
    )
    assert reply == ToolReply({"input": {"city": "Rome"}, "api_key": None}, [], 0)


async def test_invalid_attachments_are_dropped_and_counted_valid_ones_kept(
    host: AgentHost,
) -> None:
    raw = (
        '[1, "image", null, [], {}, {"type": ""}, {"type": 5}, {"kind": "image"},'
        ' {"type": "chart", "v": NaN}, {"type": "ok-1"}, {"type": "ok-2", "n": [1, 2]}]'
    )
    reply = await _reply(host, raw)
    assert reply.attachments == [{"type": "ok-1"}, {"type": "ok-2", "n": [1, 2]}]
    assert reply.rejected_attachments == 9
    assert reply.output == {"temp": 21}


@pytest.mark.parametrize("raw", ['{"type": "image"}', '"image"', "7", "true"])
async def test_attachments_that_are_not_a_list_are_ignored_as_one_rejection(
    host: AgentHost, raw: str
) -> None:
    reply = await _reply(host, raw)
    assert reply.attachments == []
    assert reply.rejected_attachments == 1
    assert reply.output == {"temp": 21}


async def test_null_attachments_mean_none(host: AgentHost) -> None:
    reply = await _reply(host, "null")
    assert (reply.attachments, reply.rejected_attachments) == ([], 0)


async def test_forty_attachments_are_capped_to_the_first_thirty_two(host: AgentHost) -> None:
    items = [{"type": "n", "i": i} for i in range(40)]
    reply = await _reply(host, json.dumps(items))
    assert MAX_ATTACHMENTS_PER_REPLY == 32
    assert reply.attachments == items[:32]
    assert reply.rejected_attachments == 8


async def test_cap_counts_only_kept_attachments_so_invalid_ones_do_not_use_slots(
    host: AgentHost,
) -> None:
    items: list[Any] = [{"no": "type"}] * 5 + [{"type": "n", "i": i} for i in range(40)]
    reply = await _reply(host, json.dumps(items))
    assert [a["i"] for a in reply.attachments] == list(range(32))
    assert reply.rejected_attachments == 5 + 8


async def test_attachment_size_limit_is_64_kib_of_utf8_json(host: AgentHost) -> None:
    overhead = len('{"type":"t","d":""}')
    exact = {"type": "t", "d": "x" * (MAX_ATTACHMENT_BYTES - overhead)}
    over = {"type": "t", "d": "x" * (MAX_ATTACHMENT_BYTES - overhead + 1)}
    # 40,000 characters, but 80,000 bytes once encoded: the limit is on bytes.
    wide = {"type": "t", "d": "\u00e9" * 40_000}
    reply = await _reply(host, json.dumps([exact, over, wide], ensure_ascii=False))
    assert reply.attachments == [exact]
    assert reply.rejected_attachments == 2


async def test_error_reply_raises_and_its_attachments_are_discarded(host: AgentHost) -> None:
    with pytest.raises(ToolError) as caught:
        await call_remote_tool_reply(
            _tool(host, "/fails-with-attachments"),
            {"city": "Paris"},
            secret=SECRET,
            execution_id="e",
            seq=0,
        )
    assert caught.value.name == "Declined"


# --- revert --------------------------------------------------------------------------------


def _revertible(host: AgentHost, revert_path: str, **extra: Any) -> ToolDef:
    return _tool(host, "/echo", revert_url=host.base_url + revert_path, **extra)


async def _revert(tool: ToolDef, **extra: Any) -> Any:
    return await call_remote_revert(
        tool,
        extra.pop("args", {"city": "Paris"}),
        extra.pop("result", {"booked": 7}),
        secret=extra.pop("secret", SECRET),
        execution_id="exec_1",
        seq=extra.pop("seq", 4),
        **extra,
    )


async def test_revert_posts_signed_body_with_input_output_and_action_to_revert_url(
    host: AgentHost,
) -> None:
    await _revert(_revertible(host, "/revert-true"), args={"city": "Oslo"}, seq=5)
    [call] = host.calls
    assert call["path"] == "/revert-true"
    assert call["body"] == {
        "tool": "get-weather",
        "input": {"city": "Oslo"},
        "output": {"booked": 7},
        "execution_id": "exec_1",
        "seq": 5,
        "idempotency_key": "exec_1:5",
        "action": "revert",
    }
    headers = call["headers"]
    verify_signature(
        SECRET, headers[TIMESTAMP_HEADER.lower()], call["raw"], headers[SIGNATURE_HEADER.lower()]
    )
    with pytest.raises(SignatureMismatch):
        verify_signature(
            SECRET,
            headers[TIMESTAMP_HEADER.lower()],
            call["raw"].replace(b'"revert"', b'"call!!"'),
            headers[SIGNATURE_HEADER.lower()],
        )


async def test_revert_body_is_built_by_the_same_function_as_the_call() -> None:
    tool = ToolDef(name="t")
    body = request_body(tool, {"x": 1}, "e", 2, "k", action="revert", output=None)
    assert body == (
        b'{"tool":"t","input":{"x":1},"output":null,"execution_id":"e","seq":2,'
        b'"idempotency_key":"k","action":"revert"}'
    )


async def test_revert_reuses_the_calls_explicit_idempotency_key_and_headers(
    host: AgentHost,
) -> None:
    tool = _revertible(host, "/revert-output", headers={"X-Api-Key": "k-9"})
    output = await _revert(tool, idempotency_key="invoice:42")
    assert output == {"undone": "invoice:42"}
    assert host.calls[0]["headers"]["x-api-key"] == "k-9"


async def test_revert_answered_reverted_true_returns_none(host: AgentHost) -> None:
    assert await _revert(_revertible(host, "/revert-true")) is None


async def test_revert_answered_reverted_false_is_a_tool_error(host: AgentHost) -> None:
    with pytest.raises(ToolError) as caught:
        await _revert(_revertible(host, "/revert-false"))
    assert caught.value.name == "RevertFailed"


async def test_revert_error_reply_is_the_tools_named_error(host: AgentHost) -> None:
    with pytest.raises(ToolError) as caught:
        await _revert(_revertible(host, "/revert-error"))
    assert (caught.value.name, caught.value.message) == ("AlreadyShipped", "order 7 has shipped")


@pytest.mark.parametrize("path", ["/revert-odd", "/shape", "/list"])
async def test_revert_reply_of_the_wrong_shape_is_shape_error(host: AgentHost, path: str) -> None:
    with pytest.raises(ToolResponseShapeError):
        await _revert(_revertible(host, path))


async def test_revert_non_2xx_and_non_json_are_typed(host: AgentHost) -> None:
    with pytest.raises(ToolHTTPStatusError) as caught:
        await _revert(_revertible(host, "/500"))
    assert caught.value.status_code == 500
    with pytest.raises(ToolResponseNotJSON):
        await _revert(_revertible(host, "/text"))


async def test_revert_with_wrong_secret_is_refused_by_the_host(host: AgentHost) -> None:
    with pytest.raises(ToolHTTPStatusError) as caught:
        await _revert(_revertible(host, "/revert-true"), secret="another-secret-0123456789")
    assert caught.value.status_code == 401
    assert host.rejected == ["SignatureMismatch"]


async def test_revert_times_out_after_the_tools_timeout(host: AgentHost) -> None:
    with pytest.raises(ToolTimeoutError):
        await _revert(_revertible(host, "/slow", timeout_ms=150))


async def test_revert_response_size_is_capped_like_a_call(host: AgentHost) -> None:
    with pytest.raises(ToolResponseTooLarge):
        await _revert(_revertible(host, "/big"), max_response_bytes=10_000)


async def test_revert_connection_failure_names_the_revert_url() -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    url = f"http://127.0.0.1:{port}/undo"
    tool = ToolDef(name="t", url="http://127.0.0.1:9/x", revert_url=url, timeout_ms=2000)
    with pytest.raises(ToolConnectionError) as caught:
        await _revert(tool)
    assert caught.value.url == url


async def test_tool_without_revert_url_cannot_be_reverted(host: AgentHost) -> None:
    with pytest.raises(ToolCallError, match="revert_url"):
        await _revert(_tool(host, "/echo"))
    assert host.calls == []


async def test_revert_does_not_revalidate_the_recorded_arguments(host: AgentHost) -> None:
    # The schema says city is a string; the recorded call is what was applied regardless.
    await _revert(_revertible(host, "/revert-true"), args={"city": 42})
    assert host.calls[0]["body"]["input"] == {"city": 42}
