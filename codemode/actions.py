"""What makes a tool an *action*: authorization, approval descriptors, reply attachments.

These are the pure rules the runtime applies around a tool call (reference section 4):

- authorization: a tool's ``permissions`` must all be granted to the execution
  (``granted_permissions``; ``None`` means everything is granted, the reference default);
  a missing one is :class:`~codemode.errors.ActionAuthorizationError`, decided before any
  approval is requested or ledger row written, and decided again when an approved call runs;
- approval: the descriptor a human is shown (whether a call needs one at all is
  :func:`codemode.tooldefs.requires_approval`);
- attachments: what a tool attached to its reply, capped per execution.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import ActionAuthorizationError
from .tooldefs import ToolDef

__all__ = [
    "DEFAULT_RISK",
    "MAX_ATTACHMENTS_PER_EXECUTION",
    "approval_descriptor",
    "approval_mode",
    "authorize",
    "cap_attachments",
    "missing_permissions",
]

MAX_ATTACHMENTS_PER_EXECUTION = 32
DEFAULT_RISK = "low"
_SUMMARY_ARGS_CHARS = 200


def missing_permissions(tool: ToolDef, granted: Sequence[str] | None) -> list[str]:
    """The tool's required permissions not in ``granted`` (``None`` grants everything)."""
    if granted is None or not tool.permissions:
        return []
    have = set(granted)
    return [p for p in tool.permissions if p not in have]


def authorize(tool: ToolDef, path: str, granted: Sequence[str] | None) -> None:
    missing = missing_permissions(tool, granted)
    if missing:
        raise ActionAuthorizationError(path, missing)


def approval_mode(tool: ToolDef) -> str:
    """``durable`` or ``inline`` (the tool's ``approval.mode``)."""
    return str((tool.approval or {}).get("mode", "durable"))


def approval_descriptor(tool: ToolDef, namespace: str, args: Mapping[str, Any], *,
                        execution_id: str, seq: int) -> dict[str, Any]:
    """What a human is shown: ``{request_id, tool_call_id, action, summary, input,
    permissions, risk, kind}``."""
    policy = tool.approval or {}
    action = f"{namespace}.{tool.identifier}"
    summary = policy.get("summary")
    if not isinstance(summary, str) or not summary:
        shown = json.dumps(dict(args), sort_keys=True, ensure_ascii=False, default=str)
        if len(shown) > _SUMMARY_ARGS_CHARS:
            shown = shown[:_SUMMARY_ARGS_CHARS] + "..."
        summary = f"{action} {shown}"
    return {
        "request_id": execution_id,
        "tool_call_id": f"{execution_id}:{seq}",
        "action": action,
        "summary": summary,
        "input": dict(args),
        "permissions": list(tool.permissions or ()),
        "risk": policy.get("risk", DEFAULT_RISK),
        "kind": "approval-gated" if approval_mode(tool) == "inline" else "durable-pause",
    }


def cap_attachments(attachments: Sequence[Mapping[str, Any]], already: int,
                    cap: int = MAX_ATTACHMENTS_PER_EXECUTION) -> list[dict[str, Any]]:
    """The attachments that still fit under the per-execution cap, in order."""
    room = max(0, cap - already)
    return [dict(a) for a in attachments[:room]]
