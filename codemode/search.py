"""``codemode.search`` and ``codemode.describe``: finding and explaining what code can call.

An :class:`CodeIndex` holds the namespaces of one execution (tools grouped by namespace)
and the saved snippets. Search ranks them with the reference's scoring (section 5):

- text is normalised by splitting camelCase and ``_ . / : -`` into words, lowercased, and
  tokenised on anything that is not ``[a-z0-9]``;
- four fields are scored with weights path 12, method 10, connector 8, description 5;
- the whole normalised query scores x14 when it equals a field, x9 when the field starts
  with it, x6 when the field contains it;
- each query token scores x4 when it equals a field token, x2 when it is a prefix of one (or
  one is a prefix of it, so ``issues`` still finds ``issue``), x1 when it occurs anywhere in
  the field;
- every token of a one- or two-token query must match somewhere; longer queries need 60% of
  their tokens, unless the whole query occurs verbatim in a field;
- bonuses: full coverage +25 (partial: coverage x 10, rounded), first query token equal to
  the first token of the path or method +8, query equal to the path or method +20;
- results are sorted by score, then path; at most 50 are returned, with ``total`` and
  ``truncated`` saying whether more matched.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from codemode.declarations import render_namespace, render_schema, render_tool
from codemode.names import sanitise_name
from codemode.tooldefs import ToolDef, requires_approval

__all__ = ["CodeIndex", "SEARCH_RESULT_LIMIT", "SnippetInfo", "normalise_search_text", "tokenise"]

SEARCH_RESULT_LIMIT = 50
_WEIGHTS = {"path": 12, "connector": 8, "method": 10, "description": 5}
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_SEPARATORS = re.compile(r"[_./:-]+")
_NON_WORD = re.compile(r"[^a-z0-9]+")


def normalise_search_text(value: str) -> str:
    """Split camelCase and ``_ . / : -`` into spaces, lowercase, and trim."""
    return _SEPARATORS.sub(" ", _CAMEL.sub(r"\1 \2", value)).lower().strip()


def tokenise(value: str) -> list[str]:
    """The search tokens of ``value``: runs of ``[a-z0-9]`` after normalisation."""
    return [t for t in _NON_WORD.split(normalise_search_text(value)) if t]


@dataclass(frozen=True)
class SnippetInfo:
    """A saved snippet as search and describe see it."""

    name: str
    description: str | None = None
    code: str = ""
    input_schema: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class _Entry:
    path: str
    connector: str
    method: str
    description: str | None
    requires_approval: bool
    kind: Literal["method", "snippet"]


@dataclass(frozen=True)
class _Field:
    raw: str
    tokens: tuple[str, ...]

    @staticmethod
    def of(value: str | None) -> _Field:
        return _Field(normalise_search_text(value or ""), tuple(tokenise(value or "")))


def _score_field(
    query: str, tokens: Sequence[str], field: _Field, weight: int
) -> tuple[int, set[str], bool]:
    if not field.raw:
        return 0, set(), False
    score = 0
    matched: set[str] = set()
    phrase = query in field.raw
    if field.raw == query:
        score += weight * 14
    elif field.raw.startswith(query):
        score += weight * 9
    elif phrase:
        score += weight * 6
    for token in tokens:
        if token in field.tokens:
            score += weight * 4
            matched.add(token)
        elif any(c.startswith(token) or token.startswith(c) for c in field.tokens):
            score += weight * 2
            matched.add(token)
        elif token in field.raw:
            score += weight
            matched.add(token)
    return score, matched, phrase


def _fields(entry: _Entry) -> dict[str, _Field]:
    return {
        "path": _Field.of(entry.path),
        "connector": _Field.of(entry.connector),
        "method": _Field.of(entry.method),
        "description": _Field.of(entry.description),
    }


def _score(fields: Mapping[str, _Field], query: str, tokens: Sequence[str]) -> int | None:
    score = 0
    matched: set[str] = set()
    phrase = False
    for name, field in fields.items():
        field_score, field_matched, field_phrase = _score_field(
            query, tokens, field, _WEIGHTS[name]
        )
        score += field_score
        matched |= field_matched
        phrase = phrase or field_phrase
    if not matched:
        return None
    coverage = len(matched) / len(tokens)
    minimum = 1.0 if len(tokens) <= 2 else 0.6
    if coverage < minimum and not phrase:
        return None
    score += 25 if coverage >= 1 else _round_half_up(coverage * 10)
    first = tokens[0]
    if fields["path"].tokens[:1] == (first,) or fields["method"].tokens[:1] == (first,):
        score += 8
    if fields["path"].raw == query or fields["method"].raw == query:
        score += 20
    return score


def _round_half_up(value: float) -> int:
    # JavaScript's Math.round, which the reference uses; Python's round() rounds to even.
    return int(value + 0.5)


class CodeIndex:
    """The namespaces and snippets one execution can reach, searchable and describable."""

    def __init__(
        self,
        namespaces: Mapping[str, Sequence[ToolDef]],
        snippets: Sequence[SnippetInfo] = (),
        *,
        instructions: Mapping[str, str] | None = None,
        include_unimplemented: bool = False,
    ) -> None:
        self._namespaces: dict[str, list[ToolDef]] = {}
        for name, tools in namespaces.items():
            kept = [t for t in tools if include_unimplemented or t.has_implementation]
            self._namespaces[sanitise_name(name)] = kept
        self._snippets = {s.name: s for s in snippets}
        self._instructions = {sanitise_name(k): v for k, v in (instructions or {}).items()}
        entries: list[_Entry] = []
        for namespace, tools in self._namespaces.items():
            for tool in tools:
                entries.append(
                    _Entry(
                        path=f"{namespace}.{tool.identifier}",
                        connector=namespace,
                        method=tool.identifier,
                        description=tool.description or None,
                        requires_approval=requires_approval(tool),
                        kind="method",
                    )
                )
        for snippet in snippets:
            entries.append(
                _Entry(snippet.name, "snippet", snippet.name, snippet.description, False, "snippet")
            )
        # Fields are normalised once here; a search then only compares strings.
        self._entries = [(entry, _fields(entry)) for entry in entries]

    def search(self, query: str) -> dict[str, Any]:
        """Ranked matches: ``{results: [...], total, truncated}`` (at most 50 results)."""
        normalised = normalise_search_text(query) if isinstance(query, str) else ""
        tokens = tokenise(query) if isinstance(query, str) else []
        ranked: list[tuple[int, _Entry]] = []
        if normalised and tokens:
            for entry, fields in self._entries:
                score = _score(fields, normalised, tokens)
                if score is not None:
                    ranked.append((score, entry))
        ranked.sort(key=lambda pair: (-pair[0], pair[1].path))
        results = [_result(entry, score) for score, entry in ranked[:SEARCH_RESULT_LIMIT]]
        return {
            "results": results,
            "total": len(ranked),
            "truncated": len(ranked) > SEARCH_RESULT_LIMIT,
        }

    def describe(self, target: str) -> dict[str, Any]:
        """``{path, description?, requires_approval?, types, kind}`` for a namespace, a
        ``namespace.method``, a bare method name, or a snippet; unknown targets get
        ``types`` ``"<target>" not found.``."""
        snippet = self._snippets.get(target)
        if snippet is not None:
            return self._describe_snippet(snippet)
        namespace_name, _, method_name = target.partition(".")
        namespace = self._find_namespace(namespace_name)
        if namespace is not None and not method_name:
            out: dict[str, Any] = {"path": namespace}
            if self._instructions.get(namespace):
                out["description"] = self._instructions[namespace]
            types = render_namespace(
                namespace, self._namespaces[namespace], include_unimplemented=True
            )
            if self._instructions.get(namespace):
                types = f"{self._instructions[namespace]}\n\n{types}"
            out.update(types=types, kind="connector")
            return out
        candidates = [namespace] if namespace is not None else list(self._namespaces)
        wanted = method_name if namespace is not None else target
        for candidate in candidates:
            for tool in self._namespaces[candidate]:
                if wanted in (tool.identifier, tool.name):
                    return _describe_tool(candidate, tool)
        return {"path": target, "types": f'"{target}" not found.', "kind": "method"}

    def _find_namespace(self, name: str) -> str | None:
        if name in self._namespaces:
            return name
        sanitised = sanitise_name(name)
        return sanitised if name and sanitised in self._namespaces else None

    def _describe_snippet(self, snippet: SnippetInfo) -> dict[str, Any]:
        parts = []
        if snippet.description:
            parts.append(snippet.description)
        parts.append(f"Run it with codemode.run({snippet.name!r}, input).")
        if snippet.input_schema is not None:
            parts.append(render_schema(snippet.input_schema, "SnippetInput"))
        if snippet.code:
            parts.append(f"```python\n{snippet.code}\n```")
        out: dict[str, Any] = {"path": snippet.name}
        if snippet.description:
            out["description"] = snippet.description
        out.update(types="\n\n".join(parts), kind="snippet")
        return out


def _result(entry: _Entry, score: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "path": entry.path,
        "connector": entry.connector,
        "method": entry.method,
    }
    if entry.description:
        out["description"] = entry.description
    if entry.requires_approval:
        out["requires_approval"] = True
    out.update(kind=entry.kind, score=score)
    return out


def _describe_tool(namespace: str, tool: ToolDef) -> dict[str, Any]:
    out: dict[str, Any] = {"path": f"{namespace}.{tool.identifier}"}
    if tool.description:
        out["description"] = tool.description
    if requires_approval(tool):
        out["requires_approval"] = True
    out.update(types=render_tool(tool, namespace), kind="method")
    return out
