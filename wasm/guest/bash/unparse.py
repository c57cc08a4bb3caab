"""Turns a syntax tree back into bash source, for ``declare -f`` and ``type`` (bash's layout:
four-space indents, ``name () `` then ``{ `` on its own line)."""

from __future__ import annotations

from .syntax import (
    AndOr, ArithCmd, ArithFor, Case, Command, CondAndOr, CondBinary, CondCmd, CondExpr, CondNot,
    CondUnary, CondWord, For, FuncDef, Group, If, ListNode, Loop, Pipeline, Redir, Simple, Subshell,
)


def _redirs(redirs: list[Redir]) -> str:
    out = []
    for r in redirs:
        fd = "" if r.fd is None else str(r.fd)
        if r.heredoc is not None:
            out.append(f"{fd}{r.op} {r.target}\n{r.heredoc.body}{r.heredoc.delim}")
        else:
            out.append(f"{fd}{r.op} {r.target}")
    return (" " + " ".join(out)) if out else ""


def _simple(cmd: Simple) -> str:
    parts = []
    for a in cmd.assigns:
        value = "(" + " ".join(a.array) + ")" if a.array is not None else (a.value or "")
        index = f"[{a.index}]" if a.index is not None else ""
        parts.append(f"{a.name}{index}{'+' if a.append else ''}={value}")
    parts.extend(w.raw for w in cmd.words)
    return " ".join(parts) + _redirs(cmd.redirs)


def _cond(expr: CondExpr) -> str:
    if isinstance(expr, CondWord):
        return expr.word.raw
    if isinstance(expr, CondUnary):
        return f"{expr.op} {expr.operand.raw}"
    if isinstance(expr, CondBinary):
        return f"{expr.left.raw} {expr.op} {expr.right.raw}"
    if isinstance(expr, CondNot):
        return f"! {_cond(expr.inner)}"
    assert isinstance(expr, CondAndOr)
    return f"{_cond(expr.left)} {expr.op} {_cond(expr.right)}"


def _pipeline(p: Pipeline, ind: str) -> str:
    text = " | ".join(_command(c, ind) for c in p.commands)
    return ("! " if p.negate else "") + text


def _andor(a: AndOr, ind: str) -> str:
    text = _pipeline(a.first, ind)
    for op, p in a.rest:
        text += f" {op} " + _pipeline(p, ind)
    return text


def _list(node: ListNode, ind: str, nested: bool = True) -> str:
    """Commands one per line; bash ends each with ``;`` except the last of a function body."""
    lines = []
    for k, (andor, bg) in enumerate(node.items):
        text = _andor(andor, ind)
        last = k == len(node.items) - 1
        lines.append(ind + text + (" &" if bg else ("" if last and not nested else ";")))
    return "\n".join(lines)


def _command(cmd: Command, ind: str) -> str:
    inner = ind + "    "
    if isinstance(cmd, Simple):
        return _simple(cmd)
    if isinstance(cmd, Group):
        return "{ \n" + _list(cmd.body, inner) + "\n" + ind + "}" + _redirs(cmd.redirs)
    if isinstance(cmd, Subshell):
        return "( " + _list(cmd.body, "", False).strip() + " )" + _redirs(cmd.redirs)
    if isinstance(cmd, If):
        out = ""
        for k, (cond, body) in enumerate(cmd.clauses):
            out += ("if " if k == 0 else "\n" + ind + "elif ") + _list(cond, "", False).strip() + "; then\n" + _list(body, inner)
        if cmd.else_body is not None:
            out += "\n" + ind + "else\n" + _list(cmd.else_body, inner)
        return out + "\n" + ind + "fi" + _redirs(cmd.redirs)
    if isinstance(cmd, Loop):
        word = "until" if cmd.until else "while"
        return f"{word} {_list(cmd.cond, '', False).strip()}; do\n{_list(cmd.body, inner)}\n{ind}done" + _redirs(cmd.redirs)
    if isinstance(cmd, For):
        words = "" if cmd.words is None else " in " + " ".join(w.raw for w in cmd.words)
        return f"for {cmd.var}{words};\n{ind}do\n{_list(cmd.body, inner)}\n{ind}done" + _redirs(cmd.redirs)
    if isinstance(cmd, ArithFor):
        return f"for (({cmd.init}; {cmd.cond}; {cmd.step}))\n{ind}do\n{_list(cmd.body, inner)}\n{ind}done"
    if isinstance(cmd, Case):
        out = f"case {cmd.word.raw} in \n"
        for item in cmd.items:
            out += inner + " | ".join(p.raw for p in item.patterns) + ")\n" + _list(item.body, inner + "    ") + "\n" + inner + item.terminator + "\n"
        return out + ind + "esac"
    if isinstance(cmd, ArithCmd):
        return f"(({cmd.expr}))"
    if isinstance(cmd, CondCmd):
        return f"[[ {_cond(cmd.expr)} ]]"
    if isinstance(cmd, FuncDef):
        return function_text(cmd)
    return ""


def function_text(func: FuncDef) -> str:
    body = func.body
    if isinstance(body, Group):
        return f"{func.name} () \n{{ \n{_list(body.body, '    ', nested=False)}\n}}" + _redirs(body.redirs)
    return f"{func.name} () \n{_command(body, '')}"


def unparse_andor(andor: AndOr) -> str:
    """An and-or list as bash prints it (what ``jobs`` shows for a background job)."""
    return _andor(andor, "")
