"""Performing one assignment word: ``name=v``, ``name+=v``, ``a[i]=v`` and the compound
``a=(...)``/``a+=(...)``, for a bare assignment and for the declaration builtins' arguments.
(Prefix assignments before a command live in ``evaluate.py``: they build a temporary scope.)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .state import Var
from .syntax import Assign

if TYPE_CHECKING:
    from .evaluate import Shell


def assign(sh: Shell, a: Assign) -> None:
    """Perform one assignment word (``name=v``, ``name+=v``, ``a[i]=v``, ``a=(...)``)."""
    st = sh.state
    ex = sh.expander
    if a.array is not None:
        values: list[str] = []
        keyed: list[tuple[str, str]] = []
        var = st.lookup(st.resolve_nameref(a.name))
        is_assoc = var is not None and var.assoc is not None
        for raw in a.array:
            m = re.match(r"\[([^\]]*)\](\+?)=", raw)
            if m:
                keyed.append((ex.string(m.group(1)) if is_assoc else ex.arith_text(m.group(1)), ex.string(raw[m.end():], True)))
            else:
                values.extend(ex.words([raw]))
        if is_assoc:
            assert var is not None
            if not a.append:
                st.writable(a.name).assoc = {}
            for key, value in keyed:
                st.set_element(a.name, key, value)
            if values:
                for k in range(0, len(values) - 1, 2):
                    st.set_element(a.name, values[k], values[k + 1])
            return
        if a.append:
            base = 0
            if var is not None and var.array:
                base = _next_index(var.array)
            elif var is not None and var.value is not None:
                base = 1
                st.set_element(a.name, "0", var.value)
        else:
            st.set_array(a.name, [])
            base = 0
        nxt = base
        for value in values:
            st.set_element(a.name, str(nxt), value)
            nxt += 1
        for key, value in keyed:
            st.set_element(a.name, key, value)
        if not keyed and not values and not a.append:
            st.set_array(a.name, [])
        return
    value = ex.string(a.value or "", True)
    if a.index is not None:
        var = st.lookup(st.resolve_nameref(a.name))
        key = ex.string(a.index) if var is not None and var.assoc is not None else ex.arith_text(a.index)
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
