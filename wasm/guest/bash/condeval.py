"""``[[ ]]``: evaluating a conditional expression's tree, and ``set -x``'s line for each
term bash evaluates (``[[ ab == \\a* ]]``: a pattern's quoted characters backslash-escaped,
an empty operand as ``''``, a lone word as ``-n word``; an operator left out by ``&&``/``||``
is never shown).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import pattern as patterns
from . import xtrace
from .builtins import binary_test, unary_test
from .errors import BashError
from .syntax import CondAndOr, CondBinary, CondExpr, CondNot, CondUnary, CondWord

if TYPE_CHECKING:
    from .evaluate import Shell


def eval_cond(sh: Shell, expr: CondExpr, invert: bool = False) -> bool:
    """The truth of ``expr``; ``invert``: it is the operand of a ``!`` (traced with it)."""
    if isinstance(expr, CondAndOr):
        left_ok = eval_cond(sh, expr.left)
        if expr.op == "&&":
            return left_ok and eval_cond(sh, expr.right)
        return left_ok or eval_cond(sh, expr.right)
    if isinstance(expr, CondNot):
        return not eval_cond(sh, expr.inner, isinstance(expr.inner, (CondWord, CondUnary, CondBinary)))
    ex = sh.expander
    if isinstance(expr, CondWord):
        word = ex.string(expr.word.raw)
        _trace(sh, invert, "-n", _operand(word))
        return word != ""
    if isinstance(expr, CondUnary):
        operand = ex.string(expr.operand.raw)
        _trace(sh, invert, expr.op, _operand(operand))
        return unary_test(sh, expr.op, operand)
    return _binary(sh, expr, invert)


def _operand(text: str) -> str:
    return text or "''"


def _trace(sh: Shell, invert: bool, *words: str) -> None:
    if xtrace.active(sh) and sh.cur_io is not None:
        xtrace.emit(sh, sh.cur_io, "[[ " + ("! " if invert else "") + " ".join(words) + " ]]")


def _binary(sh: Shell, expr: CondBinary, invert: bool) -> bool:
    ex = sh.expander
    op = expr.op
    left = ex.string(expr.left.raw)
    if op in ("==", "=", "!="):
        pat, shown = ex.cond_pattern(expr.right.raw, regex=False)
        _trace(sh, invert, _operand(left), op, _operand(shown))
        result = patterns.match(pat, left, bool(sh.state.shopts.get("nocasematch")))
        return result if op != "!=" else not result
    if op == "=~":
        source, shown = ex.cond_pattern(expr.right.raw, regex=True)
        _trace(sh, invert, _operand(left), op, _operand(shown))
        return _regex_match(sh, left, source)
    right = ex.string(expr.right.raw)
    _trace(sh, invert, _operand(left), op, _operand(right))
    if op in ("<", ">"):
        a, b = left.encode("utf-8", "surrogateescape"), right.encode("utf-8", "surrogateescape")
        return a < b if op == "<" else a > b
    return binary_test(sh, op, left, right, arithmetic_operands=True)


def _regex_match(sh: Shell, left: str, source: str) -> bool:
    try:
        flags = re.IGNORECASE if sh.state.shopts.get("nocasematch") else 0
        rx = re.compile(_literal_close_parens(_posix_classes(source)), flags)
    except re.error:
        # regcomp's failure makes [[ ]] return 2 without a word
        raise BashError("", 2) from None
    m = rx.search(left)
    if m is None:
        sh.state.set_array("BASH_REMATCH", [])
        return False
    groups = [m.group(0)] + [g if g is not None else "" for g in m.groups()]
    var = sh.state.lookup("BASH_REMATCH")
    if var is not None and "r" in var.attrs:
        return True
    sh.state.set_array("BASH_REMATCH", groups)
    return True


_CLASS_MAP = {
    "[:alpha:]": "a-zA-Z", "[:digit:]": "0-9", "[:alnum:]": "a-zA-Z0-9", "[:upper:]": "A-Z",
    "[:lower:]": "a-z", "[:space:]": " \\t\\n\\r\\f\\v", "[:blank:]": " \\t", "[:punct:]": "!-/:-@\\[-`{-~",
    "[:xdigit:]": "0-9A-Fa-f", "[:word:]": "a-zA-Z0-9_", "[:cntrl:]": "\\x00-\\x1f", "[:print:]": " -~", "[:graph:]": "!-~",
}


def _posix_classes(source: str) -> str:
    for k, v in _CLASS_MAP.items():
        source = source.replace(k, v)
    return source


def _literal_close_parens(source: str) -> str:
    """A ``)`` that closes no group is an ordinary character in a POSIX ERE (glibc)."""
    out: list[str] = []
    depth = 0
    i = 0
    in_class = False
    while i < len(source):
        c = source[i]
        if c == "\\" and i + 1 < len(source):
            out.append(source[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            if source[i + 1:i + 2] == "]":
                out.append("[]")
                i += 2
                continue
        elif c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                out.append("\\)")
                i += 1
                continue
            depth -= 1
        out.append(c)
        i += 1
    return "".join(out)
