"""Performing one assignment word: ``name=v``, ``name+=v``, ``a[i]=v`` and the compound
``a=(...)``/``a+=(...)``, for a bare assignment and for the declaration builtins' arguments.
(Prefix assignments before a command live in ``evaluate.py``: they build a temporary scope.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import arith, xtrace
from .errors import BashError
from .state import Var, arith_view
from .syntax import Assign, subscript_end

if TYPE_CHECKING:
    from .evaluate import Shell


def assign(sh: Shell, a: Assign, declared: bool = False) -> None:
    """Perform one assignment word (``name=v``, ``name+=v``, ``a[i]=v``, ``a=(...)``);
    ``declared``: it is an argument of a declaration builtin (bash words its errors apart)."""
    st = sh.state
    ex = sh.expander
    if a.array is not None:
        if not declared and xtrace.active(sh):
            # bash shows the list as written; a declaration's, once expanded (below)
            _trace(sh, f"{a.name}{'+' if a.append else ''}=({' '.join(a.array)})")
        var = st.lookup(st.resolve_nameref(a.name))
        if var is not None and var.assoc is not None:
            _assign_assoc(sh, a, a.array, declared)
        else:
            _assign_indexed(sh, a, a.array, declared)
        return
    value = ex.string(a.value or "", True)
    if not declared and xtrace.active(sh):
        subscript = f"[{a.index}]" if a.index is not None else ""
        _trace(sh, f"{a.name}{subscript}{'+' if a.append else ''}={xtrace.value(value)}")
    if a.index is not None:
        var = st.lookup(st.resolve_nameref(a.name))
        key = ex.string(a.index) if var is not None and var.assoc is not None else ex.arith_text(a.index)
        if key == "" and var is not None and var.assoc is not None:
            # fails the assignment as an expansion error does: the rest of the line is dropped
            raise BashError(f"{a.name}[{a.index}]: bad array subscript")
        if a.append:
            previous, _, _ = ex.values(a.name, a.index)
            value = _append(var, previous[0] if previous else "", value)
        st.set_element(a.name, key, value)
        return
    if a.append:
        var = st.lookup(st.resolve_nameref(a.name))
        if var is not None and var.array is not None:
            st.set_element(a.name, "0", _append(var, var.array.get(0, ""), value))
            return
        value = _append(var, st.get(a.name) or "", value)
    st.set(a.name, value)


def _trace(sh: Shell, text: str) -> None:
    if sh.cur_io is not None:
        xtrace.emit(sh, sh.cur_io, text)


def _trace_declared(sh: Shell, a: Assign, items: list[tuple[str | None, bool, str]]) -> None:
    """A declaration's ``name=(...)`` once expanded."""
    if not xtrace.active(sh):
        return
    _trace(sh, f"{a.name}{'+' if a.append else ''}={xtrace.declared_list(items)}")


def _trace_pending(sh: Shell) -> None:
    """The declaration builtin's own line, after its last ``name=(...)`` (``Shell._trace_command``)."""
    pending = sh.pending_trace
    if pending is not None:
        line, left = pending
        sh.pending_trace = (line, left - 1) if left > 1 else None
        if left <= 1:
            _trace(sh, line)


def _element(raw: str, quotes: bool) -> tuple[str, bool, str] | None:
    """(subscript, is ``+=``, value) of a compound element ``[k]=v``; None for a plain word."""
    if not raw.startswith("["):
        return None
    end = subscript_end(raw, 0, quotes)
    if end is None:
        return None
    if raw.startswith("=", end + 1):
        return raw[1:end], False, raw[end + 2:]
    if raw.startswith("+=", end + 1):
        return raw[1:end], True, raw[end + 3:]
    return None


def _assign_indexed(sh: Shell, a: Assign, raws: list[str], declared: bool) -> None:
    """``a=(...)`` / ``a+=(...)`` over an indexed array, as bash does it: every word is expanded
    first, then the array emptied, then the elements are stored in order, a plain one at the
    index after the previous element's (``a=(1 [5]=2 x)`` puts x at 6)."""
    st = sh.state
    ex = sh.expander
    items: list[tuple[str | None, bool, str]] = []
    for raw in raws:
        element = _element(raw, quotes=False)
        if element is None:
            items.extend((None, False, value) for value in ex.words([raw]))
        else:
            subscript, plus, value = element
            items.append((ex.string(subscript), plus, ex.string(value, True)))
    if declared:
        _trace_declared(sh, a, items)
        _trace_pending(sh)
    var = st.lookup(st.resolve_nameref(a.name))
    nxt = 0
    if not a.append:
        st.set_array(a.name, [])
    elif var is not None and var.array:
        nxt = _next_index(var.array)
    elif var is not None and var.value is not None:
        nxt = 1
        st.set_element(a.name, "0", var.value)
    var = st.writable(a.name)
    for key, plus, value in items:
        index = nxt
        if key is not None:
            index = int(key) if (key.isascii() and key.isdigit()) else arith.evaluate(key, arith_view(st)) if key.strip() else -1
            if index < 0 and key.strip() and var.array:
                index += max(var.array) + 1
            if index < 0:
                sh.warn(f"[{key}]{'+=' if plus else '='}{value}: bad array subscript")
                continue
        if plus:
            value = _append(var, (var.array or {}).get(index, ""), value)
        st.set_element(a.name, str(index), value)
        nxt = index + 1


def _assign_assoc(sh: Shell, a: Assign, raws: list[str], declared: bool) -> None:
    """``m=(...)`` / ``m+=(...)`` over an associative array: ``[k]=v`` elements, or key-value
    pairs when the first word has no subscript (``m=(k1 v1 k2 v2)``, bash 5.1's form).

    A ``[k]+=v`` in ``m=(...)`` appends to the value the array had before (bash fills a new
    table and reads the old one)."""
    st = sh.state
    ex = sh.expander
    items: list[tuple[str, bool, str]] = []
    traced: list[tuple[str | None, bool, str]] = []
    warnings: list[str] = []
    if raws and _element(raws[0], quotes=True) is None:
        words = ex.words(raws)
        traced = [(None, False, w) for w in words]
        if len(words) % 2:
            words.append("")
        items = [(words[k], False, words[k + 1]) for k in range(0, len(words), 2)]
    else:
        for raw in raws:
            element = _element(raw, quotes=True)
            if element is None:
                shown = f"'{raw}'" if declared else raw
                warnings.append(f"{a.name}: {shown}: must use subscript when assigning associative array")
                traced.append((None, False, raw))
                continue
            key, plus, value = element
            key, value = ex.string(key), ex.string(value, True)
            traced.append((key, plus, value))
            if key == "":
                shown = f"['']='{value}'" if declared else raw
                warnings.append(f"{shown}: bad array subscript")
                continue
            items.append((key, plus, value))
    if declared:
        _trace_declared(sh, a, traced)
    for warning in warnings:
        sh.warn(warning)
    if declared:
        _trace_pending(sh)
    var = st.writable(a.name)
    before = dict(var.assoc or {})
    if not a.append:
        var.assoc = {}
    for key, plus, value in items:
        if plus:
            current = var.assoc if a.append and var.assoc is not None else before
            value = _append(var, current.get(key, ""), value)
        st.set_element(a.name, key, value)


def _next_index(array: dict[int, str]) -> int:
    """One past the highest index; O(1) when elements were appended in order."""
    last = next(reversed(array))
    if last == len(array) - 1:
        return last + 1
    return max(array) + 1


def _append(var: Var | None, old: str, value: str) -> str:
    if var is not None and "i" in var.attrs:
        try:
            return str(int(old or "0") + int(value or "0"))
        except ValueError:
            return old + "+" + value
    return old + value
