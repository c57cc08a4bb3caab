"""Variables and their attributes: ``declare``/``typeset``/``local``, ``export``, ``readonly``,
``unset`` and ``let``, and how bash prints a variable back (``declare -p``, ``set``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .. import xtrace
from ..errors import BashError
from ..expand import quote_for_shell
from ..state import Var, arith_view, element_ref
from ..syntax import subscript_end
from ._common import Builtin, Entry, encode, print_error

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


def run_let(sh: Shell, argv: list[str], io: IO) -> int:
    if len(argv) < 2:
        print_error(io, "let: expression expected")
        return 1
    from ..arith import evaluate

    value = 0
    for expr in argv[1:]:
        try:
            value = evaluate(expr, arith_view(sh.state))
        except BashError as exc:
            print_error(io, f"let: {exc.message}")
            return 1
    return 0 if value else 1


def _dq(value: str) -> str:
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        return quote_for_shell(value)  # $'...' with escapes, as bash prints control characters
    return '"' + re.sub(r'(["\\$`])', r"\\\1", value) + '"'


def declare_line(name: str, var: Var) -> str:
    flags = ""
    if var.array is not None:
        flags += "a"
    if var.assoc is not None:
        flags += "A"
    for f in "ilnrtux":
        if f in var.attrs:
            flags += f
    flag_text = "-" + flags if flags else "--"
    if "unassigned" in var.attrs and not var.array and not var.assoc:
        return f"declare {flag_text} {name}"
    if var.array is not None:
        body = " ".join(f"[{k}]={_dq(v)}" for k, v in sorted(var.array.items()))
        return f"declare {flag_text} {name}=({body})"
    if var.assoc is not None:
        body = "".join(f"[{_assoc_key(k)}]={_dq(var.assoc[k])} " for k in var.keys())
        return f"declare {flag_text} {name}=({body})"
    if var.value is None:
        return f"declare {flag_text} {name}"
    return f"declare {flag_text} {name}={_dq(var.value)}"


def _assoc_key(key: str) -> str:
    if re.match(r"[A-Za-z0-9_./-]+\Z", key):
        return key
    return _dq(key)


def function_text(sh: Shell, name: str) -> str:
    from ..unparse import function_text

    return function_text(sh.state.functions[name])


@dataclass
class _DeclareFlags:
    """The options of one ``declare``/``typeset``/``local``/``export``/``readonly`` call."""

    set_flags: set[str] = field(default_factory=set)
    unset_flags: set[str] = field(default_factory=set)
    print_mode: bool = False
    funcs: bool = False
    func_names: bool = False
    global_scope: bool = False


def _declare_flags(cmd: str, args: list[str]) -> tuple[_DeclareFlags, list[str]]:
    """Split ``args`` into the options (``-aAfFgilnprtuxw``, ``+...`` to remove) and the names."""
    flags = _DeclareFlags(global_scope=cmd in ("readonly", "export"))
    if cmd == "readonly":
        flags.set_flags.add("r")
    if cmd == "export":
        flags.set_flags.add("x")
    k = 0
    while k < len(args):
        a = args[k]
        if a == "--":
            k += 1
            break
        if not (len(a) > 1 and a[0] in "-+" and re.match(r"[-+][aAfFgilnprtuxw]+\Z", a)):
            break
        for f in a[1:]:
            if f == "p":
                flags.print_mode = True
            elif f == "f":
                flags.funcs = True
            elif f == "F":
                flags.funcs = flags.func_names = True
            elif f == "g":
                flags.global_scope = True
            elif cmd == "export" and f == "n":
                flags.unset_flags.add("x")
            elif cmd == "readonly" and f == "n":
                flags.set_flags.discard("r")  # readonly's -n undoes, as export's does
            elif a[0] == "-":
                flags.set_flags.add(f)
            else:
                flags.unset_flags.add(f)
        k += 1
    return flags, args[k:]


def run_declare(sh: Shell, argv: list[str], io: IO) -> int:
    st = sh.state
    cmd = argv[0]
    flags, names = _declare_flags(cmd, argv[1:])
    decl_arrays = sh.decl_arrays
    if cmd == "local" and st.call_depth == 0:
        print_error(io, "local: can only be used in a function")
        return 1
    if flags.funcs:
        return _print_functions(sh, names, flags, io)
    if not names:
        _print_variables(sh, cmd, flags, io)
        return 0
    status = 0
    arg_base = len(argv) - len(names)
    for offset, item in enumerate(names):
        if not _declare_one(sh, cmd, item, flags, decl_arrays.get(arg_base + offset), io):
            status = 1
    return status


def _print_functions(sh: Shell, names: list[str], flags: _DeclareFlags, io: IO) -> int:
    """``declare -f``/``-F``: the named functions (all of them without names)."""
    st = sh.state
    status = 0
    for name in names or sorted(st.functions):
        if name not in st.functions:
            status = 1
            continue
        if flags.func_names:
            io.out(1).write(encode(f"declare -f {name}\n" if flags.print_mode or not names else f"{name}\n"))
        else:
            io.out(1).write(encode(function_text(sh, name) + "\n"))
    return status


def _print_variables(sh: Shell, cmd: str, flags: _DeclareFlags, io: IO) -> None:
    """``declare`` without names: every variable with the requested attributes."""
    st = sh.state
    if not (flags.print_mode or cmd in ("declare", "typeset", "readonly", "export", "local")):
        return
    wanted = flags.set_flags - {"g"}
    # `local` lists every local of the function, a declared but unset one too
    for name in sorted(st.scopes[-1]) if cmd == "local" else st.all_names():
        var = st.lookup(name)
        if var is None:
            continue
        if wanted and not all((f in var.attrs) or (f == "a" and var.array is not None) or (f == "A" and var.assoc is not None) for f in wanted):
            continue
        if cmd == "local" and name not in st.scopes[-1]:
            continue
        line = declare_line(name, var)
        if not flags.print_mode and cmd in ("declare", "typeset") and not flags.set_flags:
            line = set_line(name, var)
        io.out(1).write(encode(line + "\n"))


def _declare_one(sh: Shell, cmd: str, item: str, flags: _DeclareFlags, array: list[str] | None, io: IO) -> bool:
    """Declare one ``name``, ``name=value`` or ``name[i]=value``; False if it failed.
    ``array`` holds the unexpanded elements of a ``name=(...)`` argument."""
    st = sh.state
    m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?(\+?=)?", item)
    if not m or (m.end() != len(item) and not m.group(3)):
        print_error(io, f"{cmd}: `{item}': not a valid identifier")
        return False
    name = m.group(1)
    index = m.group(2)[1:-1] if m.group(2) else None
    op = m.group(3)
    value = item[m.end() :] if op else None
    if flags.print_mode:
        found = st.lookup(name)
        if found is None:
            print_error(io, f"declare: {name}: not found")
            return False
        io.out(1).write(encode(declare_line(name, found) + "\n"))
        return True
    shown = name
    if "n" not in flags.set_flags | flags.unset_flags and index is None:
        # bash declares through an existing nameref: `declare r=5` assigns the variable r names
        target = _nameref_target(sh, cmd, name, flags.global_scope)
        if target is not None:
            ref = element_ref(target)
            name, index = ref if ref is not None else (target, None)
    var = _declared_var(sh, cmd, name, flags.global_scope)
    if index is not None and "n" in var.attrs and "n" not in flags.set_flags:
        # `declare r[1]=v` makes the nameref r an array of its own, as bash does
        print_error(io, f"warning: {name}: removing nameref attribute")
        var.attrs.discard("n")
        var.value = None
    if "r" in var.attrs and (op or (flags.set_flags - {"r", "x"}) or flags.unset_flags):
        print_error(io, f"{cmd}: {shown}: readonly variable")
        return False
    if not _apply_attributes(cmd, name, var, flags, op, io):
        return False
    if op:
        if cmd in ("export", "readonly") and array is None and xtrace.active(sh):
            # bash's export and readonly assign through the shell's own assignment, traced
            xtrace.emit(sh, io, f"{item[: m.end() - len(op)]}{op}{xtrace.value(value or '')}")
        try:
            _assign_declared(sh, name, var, index, op, value, array, io)
        except BashError as exc:
            if "n" in var.attrs and var.value is None and "n" not in flags.set_flags and cmd in ("declare", "typeset") and (
                st.call_depth == 0 or flags.global_scope
            ):
                # bash binds the unset nameref's value first, then finds it no name and drops it
                print_error(io, f"{cmd}: `{value}': not a valid identifier")
                st.unset(name)
                return False
            print_error(io, f"{cmd}: {exc.message}")
            return False
        if "r" in flags.set_flags:
            var.attrs.add("r")
    return True


def _nameref_target(sh: Shell, cmd: str, name: str, global_scope: bool) -> str | None:
    """What ``name`` refers to when it is a set nameref in the scope the declaration writes to
    (a function's ``local r`` over a global nameref ``r`` makes a new local instead)."""
    st = sh.state
    if st.call_depth > 0 and not global_scope and cmd in ("declare", "typeset", "local"):
        var = st.scopes[-1].get(name)
    elif global_scope and cmd in ("declare", "typeset"):
        var = st.scopes[0].get(name)
    else:
        var = st.lookup(name)
    if var is None or "n" not in var.attrs or not var.value:
        return None
    return st.resolve_nameref(name)


def _declared_var(sh: Shell, cmd: str, name: str, global_scope: bool) -> Var:
    """The variable ``name`` in the scope this declaration writes to, created if need be:
    in a function ``declare``/``local`` make a local unless ``-g``; export/readonly write through."""
    st = sh.state
    if st.call_depth > 0 and not global_scope and cmd in ("declare", "typeset", "local"):
        scope = st.scopes[-1]
        if name not in scope:
            shadowed = st.lookup(name)
            scope[name] = Var()
            if shadowed is not None and "x" in shadowed.attrs:
                # bash's make_local_variable: a local of an exported name is exported too
                scope[name].attrs.add("x")
    elif global_scope and cmd in ("declare", "typeset"):
        if name not in st.scopes[0]:
            st.scopes[0][name] = Var()
    var = st.lookup(name) if not (global_scope and cmd in ("declare", "typeset")) else st.owned(st.scopes[0], name)
    if var is None:
        var = Var()
        st.scope_for_write(name)[name] = var
    return var


def _apply_attributes(cmd: str, name: str, var: Var, flags: _DeclareFlags, op: str | None, io: IO) -> bool:
    """Turn ``var`` into an (associative) array and set or clear its attribute letters."""
    if "a" in flags.set_flags and var.array is None and var.assoc is None:
        if var.value is None and not op:
            var.attrs.add("unassigned")
        var.array = {} if var.value is None else {0: var.value}
        var.value = None
    if "A" in flags.set_flags and var.assoc is None:
        if var.array is not None and var.array:
            print_error(io, f"{cmd}: {name}: cannot convert indexed to associative array")
            return False
        if not op and var.value is None:
            var.attrs.add("unassigned")
        # a scalar becomes element "0", as bash converts it
        var.assoc = {} if var.value is None else {"0": var.value}
        var.array = None
        var.value = None
    for f in flags.set_flags:
        if f in "ilnrtux":
            if f == "l":
                var.attrs.discard("u")
            if f == "u":
                var.attrs.discard("l")
            if f != "r" or op is None:
                var.attrs.add(f)
    for f in flags.unset_flags:
        var.attrs.discard(f)
    return True


def _assign_declared(
    sh: Shell, name: str, var: Var, index: str | None, op: str, value: str | None, array: list[str] | None, io: IO,
) -> None:
    """The ``=value``, ``+=value``, ``[i]=value`` or ``=(...)`` part of a declaration."""
    st = sh.state
    if array is not None:
        from ..assignment import assign as assign_word
        from ..syntax import Assign

        assign_word(sh, Assign(name, None, None, array, op == "+="), declared=True)
    elif index is not None:
        if var.assoc is None and var.array is None:
            var.array = {} if var.value is None else {0: var.value}
            var.value = None
        st.set_element(name, sh.expander.string(index) if var.assoc is not None else index, value or "")
    elif "n" in var.attrs and op == "=":
        # (re)pointing a nameref sets the reference itself, never the variable it names
        if not re.match(r"[A-Za-z_][A-Za-z0-9_]*(\[.*\])?\Z", value or "", re.S):
            raise BashError(f"`{value}': invalid variable name for name reference")
        if value == name and st.call_depth == 0:
            raise BashError(f"{name}: nameref variable self references not allowed")
        var.value = value
        var.attrs.discard("unassigned")
    elif op == "+=":
        if var.array is not None:
            st.set_element(name, "0", (var.array.get(0) or "") + (value or ""))
        else:
            st.set(name, (var.value or "") + (value or "") if "i" not in var.attrs else str(int(var.value or "0") + int(value or "0")))
    else:
        st.set(name, value or "")


def set_line(name: str, var: Var) -> str:
    if var.array is not None:
        body = " ".join(f"[{k}]={_dq(v)}" for k, v in sorted(var.array.items()))
        return f"{name}=({body})"
    if var.assoc is not None:
        body = "".join(f"[{_assoc_key(k)}]={_dq(var.assoc[k])} " for k in var.keys())
        return f"{name}=({body})"
    value = var.value or ""
    if re.match(r"[A-Za-z0-9_./:=,%+@^-]*\Z", value) and value:
        return f"{name}={value}"
    return f"{name}={quote_for_shell(value)}"


def run_export(sh: Shell, argv: list[str], io: IO) -> int:
    args = argv[1:]
    if args and args[0] in ("-f", "-fn", "-nf"):
        status = 0
        for name in args[1:]:
            if name not in sh.state.functions:
                print_error(io, f"export: {name}: not a function")
                status = 1
            elif "n" in args[0]:
                sh.state.exported_functions.discard(name)
            else:
                sh.state.exported_functions.add(name)
        return status
    if not args or args == ["-p"]:
        for name, value in sorted(sh.state.exported().items()):
            io.out(1).write(encode(f"declare -x {name}={_dq(value)}\n"))
        return 0
    return run_declare(sh, argv, io)


def run_readonly(sh: Shell, argv: list[str], io: IO) -> int:
    args = argv[1:]
    if not args or args == ["-p"]:
        for name in sh.state.all_names():
            var = sh.state.lookup(name)
            if var is not None and "r" in var.attrs:
                io.out(1).write(encode(declare_line(name, var) + "\n"))
        return 0
    return run_declare(sh, argv, io)


def _unset_mode(args: list[str], io: IO) -> tuple[str, list[str]] | int:
    """The options before the names: ``f`` (functions), ``n`` (namerefs themselves) or ``v``;
    an exit status for a bad option or ``-f`` with ``-v``."""
    letters = ""
    k = 0
    while k < len(args) and args[k].startswith("-") and len(args[k]) > 1:
        if args[k] == "--":
            k += 1
            break
        for letter in args[k][1:]:
            if letter not in "fvn":
                print_error(io, f"unset: -{letter}: invalid option")
                io.out(2).write(b"unset: usage: unset [-f] [-v] [-n] [name ...]\n")
                return 2
        letters += args[k][1:]
        k += 1
    if "f" in letters and "v" in letters:
        print_error(io, "unset: cannot simultaneously unset a function and a variable")
        return 1
    return ("f" if "f" in letters else "n" if "n" in letters else "v"), args[k:]


def run_unset(sh: Shell, argv: list[str], io: IO) -> int:
    st = sh.state
    parsed = _unset_mode(argv[1:], io)
    if isinstance(parsed, int):
        return parsed
    mode, names = parsed
    status = 0
    for a in names:
        if mode == "f":
            st.functions.pop(a, None)
            continue
        m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*)\])?\Z", a, re.S)
        if not m:
            print_error(io, f"unset: `{a}': not a valid identifier")
            status = 1
            continue
        name, index = m.group(1), m.group(2)
        if index is not None and subscript_end(a, len(name)) != len(a) - 1:
            continue  # `m[]]`: the subscript closes early, and bash quietly unsets nothing
        if index is None and mode == "v":
            # through a nameref to an array element, the element goes
            name, index = element_ref(st.resolve_nameref(name)) or (name, None)
        try:
            if index is None:
                var = st.lookup(name)
                if var is None and name in st.functions:
                    st.functions.pop(name)
                    continue
                if mode == "n" and var is not None:
                    if "r" in var.attrs:
                        raise BashError(f"unset: {name}: cannot unset: readonly variable")
                    for scope in reversed(st.scopes):
                        if name in scope:
                            del scope[name]
                            break
                    continue
                st.unset(name)
            else:
                var = st.lookup(st.resolve_nameref(name))
                if var is None:
                    continue
                if "r" in var.attrs:
                    raise BashError(f"unset: {name}: cannot unset: readonly variable")
                if index in ("@", "*") and var.array is not None:
                    st.writable(st.resolve_nameref(name)).array = {}  # emptied, still an array
                elif index in ("@", "*") and var.assoc is None:
                    st.unset(name)
                elif var.assoc is not None:
                    # bash 5.2 takes m[@] and m[*] of an associative array as those keys
                    var.assoc.pop(sh.expander.string(index), None)
                elif var.array is not None:
                    var.array.pop(st.array_index(name, index, var), None)
                elif st.array_index(name, index, var) == 0:
                    st.unset(name)
        except BashError as exc:
            print_error(io, exc.message)
            status = 1
    return status


BUILTINS: dict[str, Entry] = {
    "declare": Builtin(run_declare),
    "typeset": Builtin(run_declare),
    "local": Builtin(run_declare),
    "export": Builtin(run_export),
    "readonly": Builtin(run_readonly),
    "unset": Builtin(run_unset),
    "let": Builtin(run_let),
}
