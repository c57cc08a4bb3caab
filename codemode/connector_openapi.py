"""OpenAPI connectors: an OpenAPI 3.0 or 3.1 document's operations as one namespace.

:func:`parse_document` reads a document given as JSON or YAML (YAML's safe subset, without
aliases, made the JSON it would be). :func:`operations_of` reads it into operations, one
method each, named by
``operationId`` or else ``<method>_<path>`` (made an identifier): path, query and header
parameters become keyword arguments (path-level parameters included, the operation's own
winning), the JSON request body the argument ``body``; local ``$ref``s are resolved (a cycle
becomes an open schema, nesting is bounded). Every connector also has the generic
``request(method, path, query=None, body=None, headers=None)``.

:func:`call_operation` sends one call with the connector's headers and an ``Idempotency-Key``
header; a 2xx answers with its JSON (or its text, or None when empty), anything else raises
:class:`ToolHTTPStatusError` whose ``status`` and ``body`` (its JSON, or its text) the code can
read as attributes.
"""

from __future__ import annotations

import asyncio
import copy
import datetime
import json
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

import httpx
import yaml

from .peer_http import PeerHTTP
from .errors import (
    ConnectorUnavailable,
    ToolArgumentsError,
    ToolConnectionError,
    ToolHTTPStatusError,
    ToolResponseTooLarge,
    ToolTimeoutError,
)

__all__ = ["GENERIC_REQUEST", "SAFE_METHODS", "call_operation", "fetch_document", "is_read",
           "operations_of", "parse_document"]

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
MAX_DOCUMENT_BYTES = 10 * 1024 * 1024
MAX_RESPONSE_BYTES = 10 * 1024 * 1024
MAX_REF_DEPTH = 20
MAX_DOCUMENT_DEPTH = 200
BODY_PREVIEW = 2_000
MAX_ERROR_BODY = 20_000
"""An error answer up to this many bytes is the error's ``body`` whole (its JSON); a longer
one only by its first ``BODY_PREVIEW`` characters (it is journaled with the call)."""
GENERIC_REQUEST = "request"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""HTTP's safe methods: an operation using one is a read (journaled once, after it ran)."""

_GENERIC: dict[str, Any] = {
    "name": GENERIC_REQUEST, "http_method": None, "path": None, "parameters": [],
    "description": "Send any request to the API: method (GET, POST, ...), a path under the "
                   "base URL, query parameters, a JSON body and extra headers. Returns the "
                   "response's JSON (or text); a status outside 2xx raises ToolHTTPStatusError.",
    "input_schema": {
        "type": "object", "required": ["method", "path"], "additionalProperties": False,
        "properties": {
            "method": {"type": "string", "enum": [m.upper() for m in METHODS]},
            "path": {"type": "string", "pattern": "^/", "description": "Under the base URL."},
            "query": {"type": ["object", "null"]},
            "body": {"description": "Sent as JSON."},
            "headers": {"type": ["object", "null"], "additionalProperties": {"type": "string"}},
        }},
}


async def fetch_document(connector: str, url: str, http: httpx.AsyncClient,
                         headers: Mapping[str, str], timeout_s: float) -> dict[str, Any]:
    """The OpenAPI document at ``url`` (JSON); :class:`ConnectorUnavailable` otherwise."""
    try:
        async with http.stream("GET", url, headers=dict(headers), timeout=timeout_s) as response:
            body = await _read_capped(response, MAX_DOCUMENT_BYTES)
    except ToolResponseTooLarge:
        raise ConnectorUnavailable(connector, f"the OpenAPI document at {url} is over "
                                              f"{MAX_DOCUMENT_BYTES} bytes") from None
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        raise ConnectorUnavailable(connector, f"could not fetch the OpenAPI document at {url}: "
                                              f"{type(exc).__name__}: {exc}") from None
    if not 200 <= response.status_code < 300:
        raise ConnectorUnavailable(connector, f"fetching the OpenAPI document at {url} answered "
                                              f"HTTP {response.status_code}")
    return parse_document(connector, body.decode("utf-8", errors="replace"), f"the document at {url}")


class _NoAliases(yaml.SafeLoader):  # type: ignore[misc]  # yaml ships no types
    """YAML's safe loader without aliases: ``*ref`` can make a small text a huge document
    (every later copy of it, for the resolver and the store, multiplies), and OpenAPI has
    ``$ref`` for sharing."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not accepted "
                                              "in an OpenAPI document; use $ref",
                                              event.start_mark)
        return super().compose_node(parent, index)


def _as_json(node: Any, depth: int = 0) -> Any:
    """A YAML value as the JSON it would be: keys as strings, dates as ISO text."""
    if depth > MAX_DOCUMENT_DEPTH:
        raise ValueError(f"nested deeper than {MAX_DOCUMENT_DEPTH} levels")
    if isinstance(node, dict):
        return {str(k).lower() if isinstance(k, bool) else str(k): _as_json(v, depth + 1)
                for k, v in node.items()}
    if isinstance(node, (list, tuple, set)):
        return [_as_json(v, depth + 1) for v in node]
    if isinstance(node, (datetime.date, datetime.datetime)):
        return node.isoformat()
    if isinstance(node, bytes):
        return node.decode("utf-8", errors="replace")
    if isinstance(node, float) and node != node:
        return None
    return node


def parse_document(connector: str, text: str, what: str) -> dict[str, Any]:
    """An OpenAPI document given as JSON or YAML text; :class:`ConnectorUnavailable` when it
    is neither, or not an object."""
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        try:
            document = _as_json(yaml.load(text, Loader=_NoAliases))  # noqa: S506 (safe + no aliases)
        except (yaml.YAMLError, ValueError, RecursionError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise ConnectorUnavailable(connector, f"{what} is neither JSON nor YAML: "
                                                  f"{reason[:300]}") from None
    if not isinstance(document, dict):
        raise ConnectorUnavailable(connector, f"{what} is not an object (a JSON or YAML mapping)")
    return document


def operations_of(connector: str, document: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The operations of ``document`` (see the module docstring), then ``request``."""
    version = document.get("openapi")
    if not isinstance(version, str) or not re.match(r"3\.[01]\.", version + "."):
        raise ConnectorUnavailable(connector, f"not an OpenAPI 3.0 or 3.1 document (openapi: "
                                              f"{str(version)[:40]!r})")
    paths = document.get("paths") or {}
    if not isinstance(paths, Mapping):
        raise ConnectorUnavailable(connector, "the document's paths is not an object")
    resolver = _Resolver(document)
    operations: list[dict[str, Any]] = []
    for path, item in paths.items():
        if not isinstance(item, Mapping) or not str(path).startswith("/"):
            continue
        item = resolver.resolve(item)
        shared = [resolver.resolve(p) for p in item.get("parameters") or [] if isinstance(p, Mapping)]
        for method in METHODS:
            operation = item.get(method)
            if isinstance(operation, Mapping):
                operations.append(_operation(resolver, str(path), method, operation, shared))
    operations.append(copy.deepcopy(_GENERIC))
    return operations


def is_read(operation: Mapping[str, Any], args: Mapping[str, Any]) -> bool:
    """Whether a call of ``operation`` with ``args`` only reads (a safe HTTP method)."""
    if operation.get("name") == GENERIC_REQUEST and operation.get("path") is None:
        return str(args.get("method", "")).upper() in SAFE_METHODS
    return operation.get("read_only") is True


def _operation_name(path: str, method: str, operation: Mapping[str, Any]) -> str:
    operation_id = operation.get("operationId")
    if isinstance(operation_id, str) and operation_id.strip():
        return operation_id
    words = re.sub(r"[^A-Za-z0-9]+", "_", path).strip("_")
    return f"{method}_{words}" if words else method


def _operation(resolver: "_Resolver", path: str, method: str, operation: Mapping[str, Any],
               shared: list[Mapping[str, Any]]) -> dict[str, Any]:
    by_key: dict[tuple[str, str], Mapping[str, Any]] = {}
    for param in [*shared, *(resolver.resolve(p) for p in operation.get("parameters") or []
                             if isinstance(p, Mapping))]:
        if isinstance(param.get("name"), str) and param.get("in") in ("path", "query", "header"):
            by_key[(str(param["in"]), str(param["name"]))] = param
    properties: dict[str, Any] = {}
    required: list[str] = []
    parameters: list[dict[str, str]] = []
    for (where, name), param in by_key.items():
        schema = resolver.schema(param.get("schema", {}))
        if isinstance(param.get("description"), str) and isinstance(schema, dict):
            schema = {**schema, "description": param["description"]}
        properties[name] = schema
        parameters.append({"name": name, "in": where})
        if where == "path" or param.get("required") is True:
            required.append(name)
    body = resolver.resolve(operation.get("requestBody") or {})
    content = body.get("content") if isinstance(body, Mapping) else None
    if isinstance(content, Mapping) and content:
        media = next((v for k, v in content.items() if "json" in str(k)), None)
        schema = resolver.schema(media.get("schema", {})) if isinstance(media, Mapping) else {}
        properties["body"] = schema
        if body.get("required") is True:
            required.append("body")
    summary = operation.get("summary")
    description = operation.get("description")
    text = "\n\n".join(str(t) for t in (summary, description) if isinstance(t, str) and t.strip())
    return {"name": _operation_name(path, method, operation), "http_method": method.upper(),
            "read_only": method.upper() in SAFE_METHODS,
            "path": path, "parameters": parameters, "description": text or f"{method.upper()} {path}",
            "input_schema": {"type": "object", "properties": properties,
                             **({"required": sorted(set(required))} if required else {})}}


class _Resolver:
    """Local ``$ref``s of one document, resolved with cycles cut and depth bounded."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document

    def _target(self, ref: str) -> Any:
        if not ref.startswith("#/"):
            return None  # a remote reference: left open, as a schema of anything
        node: Any = self.document
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(node, Mapping) or part not in node:
                return None
            node = node[part]
        return node

    def resolve(self, node: Any) -> Any:
        """``node`` itself, or what its ``$ref`` points at (following chains of refs)."""
        seen: set[str] = set()
        while isinstance(node, Mapping) and isinstance(node.get("$ref"), str):
            ref = str(node["$ref"])
            if ref in seen:
                return {}
            seen.add(ref)
            target = self._target(ref)
            node = target if target is not None else {}
        return node

    def schema(self, node: Any, depth: int = 0, stack: tuple[str, ...] = ()) -> Any:
        """A copy of schema ``node`` with every local ``$ref`` replaced by its target."""
        if depth > MAX_REF_DEPTH:
            return {}
        if isinstance(node, Mapping):
            ref = node.get("$ref")
            if isinstance(ref, str):
                if ref in stack:
                    return {"description": f"(recursive: {ref.rsplit('/', 1)[-1]})"}
                return self.schema(self._target(ref) or {}, depth + 1, (*stack, ref))
            return {str(k): self.schema(v, depth + 1, stack) for k, v in node.items()}
        if isinstance(node, list):
            return [self.schema(v, depth + 1, stack) for v in node]
        return node


async def _read_capped(response: httpx.Response, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > limit:
            raise ToolResponseTooLarge("document", limit)
        chunks.append(chunk)
    return b"".join(chunks)


def _parsed(headers: Mapping[str, str], body: bytes) -> Any:
    if not body:
        return None
    text = body.decode("utf-8", errors="replace")
    if "json" in headers.get("content-type", "").lower():
        try:
            return json.loads(text)
        except ValueError:
            return text
    return text


def _query_value(value: Any) -> Any:
    """A query value httpx can send: scalars as they are, booleans and objects as JSON."""
    if isinstance(value, bool) or isinstance(value, dict):
        return json.dumps(value)
    if isinstance(value, list):
        return [_query_value(v) for v in value]
    return value


def _request_parts(operation: Mapping[str, Any], args: Mapping[str, Any]
                   ) -> tuple[str, str, dict[str, Any], dict[str, str], Any, bool]:
    """(method, path, query, headers, body, has_body) of one call."""
    if operation["name"] == GENERIC_REQUEST and operation.get("path") is None:
        given = {str(k): _query_value(v) for k, v in (args.get("query") or {}).items()}
        return (str(args["method"]).upper(), str(args["path"]), given,
                {str(k): str(v) for k, v in (args.get("headers") or {}).items()},
                args.get("body"), "body" in args)
    path = str(operation["path"])
    query: dict[str, Any] = {}
    headers: dict[str, str] = {}
    for param in operation.get("parameters") or []:
        name, where = param["name"], param["in"]
        if name not in args:
            continue
        value = args[name]
        if where == "path":
            text = json.dumps(value) if isinstance(value, bool) else str(value)
            path = path.replace("{" + name + "}", quote(text, safe=""))
        elif where == "query":
            query[name] = _query_value(value)
        else:
            headers[name] = str(value)
    missing = re.findall(r"\{([^}]+)\}", path)
    if missing:
        raise ToolArgumentsError(str(operation["name"]), [
            {"path": m, "message": "is a path parameter and is required"} for m in missing])
    return str(operation["http_method"]), path, query, headers, args.get("body"), "body" in args


def _same_origin(url: str, base_url: str) -> bool:
    try:
        got, base = httpx.URL(url), httpx.URL(base_url)
    except httpx.InvalidURL:
        return False
    return (got.scheme, got.host, got.port) == (base.scheme, base.host, base.port) \
        and not got.userinfo


async def call_operation(operation: Mapping[str, Any], args: Mapping[str, Any], *,
                         base_url: str, headers: Mapping[str, str], idempotency_key: str,
                         http: httpx.AsyncClient | PeerHTTP, timeout_s: float) -> Any:
    """Send one operation's request and return its answer (see the module docstring)."""
    method_name = str(operation["name"])
    method, path, query, extra, body, has_body = _request_parts(operation, args)
    url = base_url.rstrip("/") + path
    if not _same_origin(url, base_url):
        raise ToolArgumentsError(method_name, [{"path": "path", "message": "must stay under the "
                                                "connector's base URL"}])
    sent = {**dict(headers), **extra, "Idempotency-Key": idempotency_key}
    if isinstance(http, PeerHTTP):
        status, answer_headers, data = await _send_lean(http, method_name, method, url, query,
                                                        sent, body if has_body else None,
                                                        timeout_s)
    else:
        status, answer_headers, data = await _send_httpx(http, method_name, method, url, query,
                                                         sent, body if has_body else None,
                                                         timeout_s)
    if not 200 <= status < 300:
        preview = data[:BODY_PREVIEW].decode("utf-8", errors="replace")
        parsed = (_parsed(answer_headers, data) if len(data) <= MAX_ERROR_BODY else preview) \
            if data else ""
        raise ToolHTTPStatusError(method_name, status,
                                  f"{method} {path}: {preview}" if preview else f"{method} {path}",
                                  body=parsed)
    return _parsed(answer_headers, data)


async def _send_lean(http: PeerHTTP, method_name: str, method: str, url: str,
                     query: Mapping[str, Any], headers: dict[str, str], body: Any,
                     timeout_s: float) -> tuple[int, Mapping[str, str], bytes]:
    """The request as httpx would send it (its URL, its JSON encoding), over ``http``."""
    try:
        target = httpx.URL(url)
        if query:
            target = target.copy_merge_params(query)
    except (httpx.InvalidURL, ValueError, TypeError) as exc:
        raise ToolConnectionError(method_name, url, f"{type(exc).__name__}: {exc}") from None
    content = None
    if body is not None:
        content = json.dumps(body, ensure_ascii=False, separators=(",", ":"),
                             allow_nan=False).encode("utf-8")
        if not any(name.lower() == "content-type" for name in headers):
            headers = {**headers, "Content-Type": "application/json"}
    try:
        async with asyncio.timeout(timeout_s if timeout_s > 0 else None):
            answer = await http.request(method, target, headers=headers, body=content,
                                        max_bytes=MAX_RESPONSE_BYTES)
    except ToolResponseTooLarge:
        raise ToolResponseTooLarge(method_name, MAX_RESPONSE_BYTES) from None
    except TimeoutError:
        raise ToolTimeoutError(method_name, int(timeout_s * 1000)) from None
    except ConnectionError as exc:
        raise ToolConnectionError(method_name, url, str(exc)) from None
    return answer.status, answer.headers, answer.body


async def _send_httpx(http: httpx.AsyncClient, method_name: str, method: str, url: str,
                      query: Mapping[str, Any], headers: dict[str, str], body: Any,
                      timeout_s: float) -> tuple[int, Mapping[str, str], bytes]:
    try:
        request = http.build_request(method, url, params=query or None, headers=headers,
                                     json=body, timeout=timeout_s if timeout_s > 0 else None)
        response = await http.send(request, stream=True)
        try:
            data = await _read_capped(response, MAX_RESPONSE_BYTES)
        finally:
            await response.aclose()
    except ToolResponseTooLarge:
        raise ToolResponseTooLarge(method_name, MAX_RESPONSE_BYTES) from None
    except httpx.TimeoutException:
        raise ToolTimeoutError(method_name, int(timeout_s * 1000)) from None
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        raise ToolConnectionError(method_name, url, f"{type(exc).__name__}: {exc}") from None
    return response.status_code, response.headers, data
