"""Parameter types shared by more than one resource's routes: names, sizes, strict scalars.

The name patterns are the stores' own rules, stated again for OpenAPI (a client or a
fuzzer generated from the schema sends only names the service accepts);
``tests/service/routes/test_params.py`` pins them to the stores' validation.
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Iterable
from typing import Annotated, Any, get_args

from fastapi import Path, Request
from pydantic import BaseModel, ConfigDict, model_validator

from codemode import ToolDefinitionError, Toolset

from ... import Limits
from .. import state
from ..errors import HTTPError
from ..settings import MIB, Caps

WORKSPACE_NAME = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"
"""A workspace's name (``WorkspaceStore.workspace`` refuses any other)."""
TOOLSET_NAME = r"^[A-Za-z_][A-Za-z0-9_-]{0,63}$"
"""A toolset's name (``Toolset`` refuses any other)."""
SNIPPET_NAME = r"^[A-Za-z_][A-Za-z0-9_.-]{0,127}$"
"""A snippet's name (``codemode.valid_snippet_name``)."""

WorkspacePath = Annotated[str, Path(pattern=WORKSPACE_NAME, description="The workspace's name.")]
def _refused_as_toolset(name: str) -> bool:
    try:
        Toolset.from_dict({"name": name, "tools": []})
    except ToolDefinitionError:
        return True
    return False


TOOLSET_RESERVED = sorted(name for name in {"state", "codemode", *dir(builtins)}
                          if re.match(TOOLSET_NAME.replace("$", r"\Z"), name) and _refused_as_toolset(name))
"""Names of the right shape that a toolset still cannot take: its namespace is a global of
the model's code, so it may not hide a built-in namespace or a Python builtin (``list``).
Asked of ``Toolset`` itself, so the documented list cannot drift from the rule."""

ToolsetPath = Annotated[str, Path(pattern=TOOLSET_NAME, description="The toolset's name.",
                                  json_schema_extra={"not": {"enum": TOOLSET_RESERVED}})]
SnippetPath = Annotated[str, Path(pattern=SNIPPET_NAME, description="The snippet's name.")]


def _is_number(annotation: Any) -> bool:
    if annotation in (int, float):
        return True
    return any(_is_number(arg) for arg in get_args(annotation))


class RequestBody(BaseModel):
    """A JSON request body: unknown fields refused, and no boolean where a number goes
    (pydantic's lax mode reads true/false as 1/0, which the documented schema forbids)."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _no_booleans_for_numbers(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for name, field in cls.model_fields.items():
                if isinstance(data.get(name), bool) and _is_number(field.annotation):
                    raise ValueError(f"{name} must be a number, not a boolean")
        return data


def one_of(values: Iterable[str]) -> str:
    """A pattern matching exactly one of ``values`` (an enumeration, for a query parameter)."""
    return "^(" + "|".join(re.escape(v) for v in sorted(values)) + ")$"


TOOL_DEFINITION: dict[str, Any] = {
    "type": "object",
    "description": "A tool (validated by `codemode.ToolDef.from_dict`, which also checks what a "
                   "schema cannot say: that `input_schema` is a valid JSON Schema for an object, "
                   "and that names stay distinct once made Python identifiers).",
    "required": ["name"],
    "additionalProperties": False,
    "properties": {
        # Some character that is not white space to either regex dialect or to str.strip().
        "name": {"type": "string", "minLength": 1, "maxLength": 256,
                 "pattern": "[^\\s\u001c-\u001f\u0085]"},
        "description": {"type": "string"},
        "input_schema": {"type": "object", "description": "JSON Schema of the arguments "
                                                          "(default: an object of anything)."},
        "output_schema": {"type": ["object", "boolean", "null"]},
        "url": {"type": ["string", "null"], "pattern": "^https?://[^/?#]"},
        "headers": {"type": ["object", "null"],
                    "propertyNames": {"minLength": 1, "pattern": "^[^\r\n\u0000]+$"},
                    "additionalProperties": {"type": "string", "pattern": "^[^\r\n\u0000]*$"}},
        "timeout_ms": {"type": "integer"},
        "approval": {"type": ["object", "null"], "additionalProperties": False,
                     "required": ["mode"], "properties": {
            "mode": {"enum": ["inline", "durable"]}, "when": {"type": ["object", "boolean"]},
            "summary": {"type": "string"}, "risk": {"enum": ["low", "medium", "high"]}}},
        "permissions": {"type": ["array", "null"],
                        "items": {"type": "string", "minLength": 1}},
        "idempotency_key": {"type": ["string", "null"], "minLength": 1},
        "revert_url": {"type": ["string", "null"], "pattern": "^https?://[^/?#]"},
    },
}
"""The JSON form of a tool definition, for OpenAPI (``tools`` of execute and of toolsets)."""


def enforce_caps(caps: Caps, body: BaseModel) -> None:
    """Refuse (422) what a request asked for past the service's caps (``memory_mb``,
    ``timeout_ms``, ``max_output_bytes``). Only what it asked: a default over a lowered cap is
    lowered to the cap where it is used (:func:`capped`), not refused."""
    most = {"memory_mb": caps.memory_mb, "timeout_ms": caps.timeout_ms,
            "max_output_bytes": caps.output_bytes}
    asked = {name: getattr(body, name) for name in most if name in body.model_fields_set}
    over = [(name, value) for name, value in asked.items()
            if value is not None and value > most[name]]
    if over:
        messages = [f"body.{name}: {value} is over this service's cap of {most[name]}"
                    for name, value in over]
        problems = [{"loc": ["body", name], "type": "less_than_equal", "msg": message}
                    for (name, _), message in zip(over, messages)]
        raise HTTPError(422, "invalid_request", "; ".join(messages), problems)


def capped(limits: Limits, caps: Caps) -> Limits:
    """``limits`` with nothing past the caps (defaults above a lowered cap come down to it)."""
    return limits.replace(deadline_s=min(limits.deadline_s, caps.timeout_ms / 1000),
                          memory_bytes=min(limits.memory_bytes, caps.memory_mb * MIB),
                          output_bytes=min(limits.output_bytes, caps.output_bytes))


def enabled(request: Request, tool: str) -> None:
    """Refuse the call (403 ``tool_disabled``) when this service has ``tool`` turned off."""
    if tool in state.settings(request).disabled_tools:
        raise HTTPError(403, "tool_disabled", f"the {tool} tool is turned off on this service")
