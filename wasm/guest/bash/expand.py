"""Word expansion, in bash's order: brace, tilde, parameter/command/arithmetic substitution,
word splitting on IFS, pathname expansion, quote removal.

Intermediate results are *segments* ``(text, kind)``: ``LIT`` unquoted source text (globs,
never split), ``QUO`` quoted text (neither), ``EXP`` the unquoted result of an expansion
(split and globbed) and ``BRK``, a forced field break (between the words of ``"$@"``).
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Callable

from . import arith, pattern
from .braces import expand_braces
from .errors import BashError, ExpansionError, FatalExpansionError
from .escapes import decode_ansi_c
from .state import Var, arith_view, element_ref
from .substitute import command_subst, process_subst
from .words import (
    ARG_DQ, DQ, DQUOTE, HEREDOC, WORD, Arith, CmdSub, Lit, Param, Part, ProcSub, Quoted, Tilde,
    parse_word,
)

if TYPE_CHECKING:
    from .evaluate import Shell
    from .state import State

LIT, QUO, EXP, BRK, EMPTY_AT = 0, 1, 2, 3, 4
Seg = tuple[str, int]
_PLAIN_WORD = re.compile(r"(?:[A-Za-z0-9_./:=,%^+@\]-]+|\[)\Z")
"""A word no expansion changes: no quote, ``$``, backquote, ``~``, brace, space or glob (a
lone ``[``, as ``test`` is spelt, opens no bracket expression: the glob takes it as itself)."""
_DEFAULT_IFS = " \t\n"


def quote_for_shell(value: str) -> str:
    """``${x@Q}`` / ``printf %q`` style quoting (bash prefers single quotes)."""
    if value == "":
        return "''"
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        out = []
        for c in value:
            if c == "\n":
                out.append("\\n")
            elif c == "\t":
                out.append("\\t")
            elif c == "\r":
                out.append("\\r")
            elif c == "\x1b":
                out.append("\\E")
            elif ord(c) < 32 or ord(c) == 127:
                out.append("\\%03o" % ord(c))
            elif c in "'\\":
                out.append("\\" + c)
            else:
                out.append(c)
        return "$'" + "".join(out) + "'"
    return "'" + value.replace("'", "'\\''") + "'"


def glob_escape(text: str) -> str:
    return "".join("\\" + c if c in "*?[]\\+@!()|" else c for c in text)


class Expander:
    """Performs expansions against one shell's state."""

    def __init__(self, sh: "Shell") -> None:
        self.sh = sh
        sh.state.subscript_text = self.subscript_text

    def subscript_text(self, subscript: str, assoc: bool) -> str:
        """A subscript expanded: an associative array's key, or an index expression's text."""
        return self.string(subscript) if assoc else self.arith_text(subscript)

    @property
    def st(self) -> "State":
        return self.sh.state

    # -- public entry points -----------------------------------------------------------
    def words(self, raws: list[str]) -> list[str]:
        """Fully expand command words into fields."""
        out: list[str] = []
        for raw in raws:
            for text in expand_braces(raw, self.sh.limits.max_brace_expansion) if "{" in raw else (raw,):
                if _PLAIN_WORD.match(text):  # the word as written, or a brace's word of plain text
                    out.append(text)
                    continue
                template = _simple_word(text)
                if template is not None:
                    simple = self._simple_field(*template)
                    if simple is not None:
                        out.extend(simple)
                        continue
                parts = parse_word(text, WORD)
                if "~" in text and _ASSIGNMENT_WORD.match(text):
                    parts = _argument_assignment_tildes(parts)
                segs = self.parts(parts, False)
                for field in self.split(segs):
                    out.extend(self.glob_field(field))
        return out

    def _simple_text(self, pieces: tuple[tuple[str, bool], ...]) -> str | None:
        """The text of a word ``_simple_word`` described, read straight from the variables;
        None when the general way must decide (a variable unset, or a nameref)."""
        st = self.st
        texts: list[str] = []
        for text, is_name in pieces:
            if is_name:
                var = st.lookup(text)
                if var is None or "n" in var.attrs:
                    return None
                value = var.scalar()
                if value is None:
                    return None
                text = value
            texts.append(text)
        return "".join(texts)

    def _simple_field(self, quoted: bool, pieces: tuple[tuple[str, bool], ...]) -> list[str] | None:
        """The fields of a word ``_simple_word`` described; None when the general way must
        decide (see ``_simple_text``; unquoted, a value that is empty or that splitting or
        globbing could change)."""
        value = self._simple_text(pieces)
        if value is None or quoted:
            return None if value is None else [value]
        st = self.st
        ifs = st.get("IFS")
        if not value or any(c in value for c in (_DEFAULT_IFS if ifs is None else ifs)):
            return None
        if not st.options.get("noglob") and any(c in value for c in "*?[("):
            return None
        return [value]

    def string(self, raw: str, tilde_assign: bool = False) -> str:
        """Expand without splitting or globbing (assignments, redirections, [[ ]], case)."""
        if _PLAIN_WORD.match(raw):
            return raw
        template = _simple_word(raw)
        if template is not None:
            value = self._simple_text(template[1])
            if value is not None:
                return value
        parts = parse_word(raw, WORD)
        if tilde_assign:
            parts = _assignment_tildes(parts)
        segs = self.parts(parts, False)
        return "".join(t if k != BRK else " " for t, k in segs if k != EMPTY_AT)

    def pattern(self, raw: str) -> str:
        """Expand into a shell pattern: quoted characters come back backslash-escaped, and
        with ``extglob`` off so does ``(``, which then opens no ``?(...)`` group."""
        segs = self.parts(parse_word(raw, WORD), False)
        text = "".join(glob_escape(t) if k == QUO else (t if k != BRK else " ") for t, k in segs)
        return text if self.st.shopts.get("extglob") else pattern.without_extglob(text)

    def cond_pattern(self, raw: str, regex: bool) -> tuple[str, str]:
        """The right side of ``[[ == ]]`` (or ``=~``) to match with, and as ``set -x`` shows it:
        bash backslash-escapes every quoted character of a pattern, and those of a regex that
        an ERE would read as operators."""
        segs = self.parts(parse_word(raw, WORD), False)
        if regex:
            used = "".join(re.escape(t) if k == QUO else t for t, k in segs if k != BRK)
            shown = "".join(_ERE_QUOTED.sub(r"\\\g<0>", t) if k == QUO else t for t, k in segs if k != BRK)
            return used, shown
        used = "".join(glob_escape(t) if k == QUO else (t if k != BRK else " ") for t, k in segs)
        shown = "".join(re.sub(r"(?s).", r"\\\g<0>", t) if k == QUO else (t if k != BRK else " ") for t, k in segs)
        return used, shown

    def regex(self, raw: str) -> str:
        """Expand the right side of ``=~``: quoted parts match literally."""
        segs = self.parts(parse_word(raw, WORD), False)
        return "".join(re.escape(t) if k == QUO else t for t, k in segs if k != BRK)

    def heredoc(self, body: str) -> str:
        return "".join(t for t, k in self.parts(parse_word(body, HEREDOC), True) if k != BRK)

    def arith_text(self, src: str) -> str:
        """Expand ``$`` constructs inside an arithmetic expression."""
        if "$" not in src and "`" not in src and '"' not in src and "'" not in src and "\\" not in src:
            return src
        if '"' in src and "$(" not in src and "`" not in src:
            # the expression is expanded as if double-quoted, then its double quotes removed
            src = re.sub(r'(?<!\\)"', "", src)
        return "".join(t for t, k in self.parts(parse_word(src, DQUOTE), True) if k != BRK)

    def arith(self, src: str) -> int:
        return arith.evaluate(self.arith_text(src), arith_view(self.st))

    # -- parts to segments -------------------------------------------------------------
    def parts(self, parts: tuple[Part, ...], in_dq: bool) -> list[Seg]:
        segs: list[Seg] = []
        for part in parts:
            # no part type subclasses another, so isinstance is exact (and narrows the type)
            if isinstance(part, Lit):
                segs.append((part.text, QUO if in_dq else LIT))
            elif isinstance(part, Quoted):
                segs.append((part.text, QUO))
            elif isinstance(part, DQ):
                inner = self.parts(part.parts, True)
                # "$@" with no parameters vanishes instead of making an empty word
                if not (inner and all(k == EMPTY_AT for _, k in inner)):
                    segs.append(("", QUO))
                segs.extend(inner)
            elif isinstance(part, Param):
                segs.extend(self.param(part, in_dq))
            elif isinstance(part, CmdSub):
                text = command_subst(self.sh, part.source)
                segs.append((text, QUO if in_dq else EXP))
            elif isinstance(part, Arith):
                value = arith.evaluate(self.arith_text(part.source), arith_view(self.st))
                segs.append((str(value), QUO if in_dq else EXP))
            elif isinstance(part, Tilde):
                segs.append((self.tilde(part.user), QUO))
            elif isinstance(part, ProcSub):
                segs.append((process_subst(self.sh, part.source, part.direction), QUO))
        return segs

    def tilde(self, user: str) -> str:
        if user == "":
            return self.st.get("HOME") or "/"
        if user == "+":
            return self.st.get("PWD") or "/"
        if user == "-":
            return self.st.get("OLDPWD") or "~-"
        if user == "root":
            return "/root"
        return "~" + user

    # -- parameters --------------------------------------------------------------------
    def _special(self, name: str) -> str | None:
        st = self.st
        if name == "?":
            return str(st.last_status)
        if name == "#":
            return str(len(st.positional))
        if name == "$":
            return str(st.pid)
        if name == "!":
            return None if st.last_bg_pid is None else str(st.last_bg_pid)
        if name == "0":
            return st.script_name
        if name == "-":
            flags = "".join(letter for letter, opt in (("e", "errexit"), ("f", "noglob"), ("u", "nounset"), ("x", "xtrace"), ("C", "noclobber"), ("a", "allexport")) if st.options.get(opt))
            return "h" + flags + "B"
        if name.isascii() and name.isdigit():
            k = int(name)
            return st.positional[k - 1] if 0 < k <= len(st.positional) else None
        return None

    def _dynamic(self, name: str) -> str | None:
        if name == "RANDOM":
            if self.sh.random is None:  # seeding costs 13-18 us; most runs never read it
                self.sh.random = random.Random()
            return str(self.sh.random.randrange(32768))
        if name == "LINENO":
            return str(self.st.lineno)
        if name == "SECONDS":
            import time

            return str(int(time.monotonic() - self.st.start_time))
        if name == "BASHPID":
            return str(self.st.bashpid)
        if name == "EPOCHSECONDS":
            import time

            return str(int(time.time()))
        if name == "EPOCHREALTIME":
            import time

            return "%.6f" % time.time()
        return None

    def values(self, name: str, index: str | None) -> tuple[list[str] | None, bool, bool]:
        """(values or None when unset, is-multi ``@``/``*``, is-star)."""
        st = self.st
        if name in ("@", "*"):
            return list(st.positional), True, name == "*"
        if not (name[0].isalpha() or name[0] == "_"):
            value = self._special(name)
            return (None if value is None else [value]), False, False
        if name == "PIPESTATUS" or name == "FUNCNAME" or name == "BASH_SOURCE" or name == "BASH_LINENO":
            if name == "PIPESTATUS":
                items = [str(s) for s in st.pipestatus]
            elif name == "FUNCNAME":
                items = list(reversed(st.funcnames))
            else:
                items = [""] * (len(st.funcnames) + 1)
            if index in ("@", "*"):
                return items, True, index == "*"
            k = 0 if index is None else self.arith(index)
            return ([items[k]] if 0 <= k < len(items) else None), False, False
        target = st.resolve_nameref(name)
        ref = element_ref(target) if "[" in target else None
        if ref is not None:
            # a nameref to an array element: bash gives ${r[0]} and ${r[@]} nothing
            return self.values(*ref) if index is None else (None, index in ("@", "*"), index == "*")
        var = st.lookup(target)
        if var is None:
            dyn = self._dynamic(name)
            if dyn is not None and index is None:
                return [dyn], False, False
            return None, index in ("@", "*"), index == "*"
        if index in ("@", "*"):
            return var.elements(), True, index == "*"
        if index is None:
            value = var.scalar()
            return (None if value is None else [value]), False, False
        if var.assoc is not None:
            key = self.string(index)
            value = var.assoc.get(key)
            return (None if value is None else [value]), False, False
        k = self.arith(index)
        if var.array is None:
            value = var.value if k in (0, -1) else None
            return (None if value is None else [value]), False, False
        if k < 0:
            k += (max(var.array) + 1) if var.array else 0
            if k < 0:
                self.sh.warn(f"{name}: bad array subscript")
                return None, False, False
        value = var.array.get(k)
        return (None if value is None else [value]), False, False

    def param(self, p: Param, in_dq: bool) -> list[Seg]:
        st = self.st
        name, index = p.name, p.index
        if p.prefix == "!":
            if p.op.startswith("names"):
                names = [n for n in st.all_names() if n.startswith(name)]
                return self._multi(names, in_dq, p.op == "names*")
            if index in ("@", "*"):
                var = st.lookup(st.resolve_nameref(name))
                keys = var.keys() if var is not None else []
                return self._multi(keys, in_dq, index == "*")
            var = st.lookup(name)
            if var is not None and "n" in var.attrs and index is None:
                target = var.value or ""
                return self._emit([target], False, False, in_dq) if not p.op else self.param(Param(target, None, "", p.op, p.arg, p.arg2, p.text), in_dq)
            values, _, _ = self.values(name, index)
            target = values[0] if values else ""
            if not target:
                if p.op:
                    values = None
                    return self._apply(p, None, False, False, in_dq, name)
                raise ExpansionError(f"{name}: invalid indirect expansion")
            m = re.match(r"([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(?:\[(.*)\])?\Z", target, re.S)
            if not m:
                raise ExpansionError(f"{target}: invalid variable name")
            name, index = m.group(1), m.group(2)
        values, multi, star = self.values(name, index)
        if p.prefix == "#":
            if multi:
                return [(str(len(values or [])), QUO if in_dq else EXP)]
            if values is None and st.options.get("nounset") and name not in ("@", "*"):
                raise FatalExpansionError(f"{name}: unbound variable")
            return [(str(len(values[0]) if values else 0), QUO if in_dq else EXP)]
        return self._apply(p, values, multi, star, in_dq, name)

    def _multi(self, items: list[str], in_dq: bool, star: bool) -> list[Seg]:
        return self._emit(items, True, star, in_dq)

    def _emit(self, values: list[str], multi: bool, star: bool, in_dq: bool) -> list[Seg]:
        if not multi:
            return [(values[0] if values else "", QUO if in_dq else EXP)]
        if in_dq and star:
            ifs = self.st.get("IFS")
            sep = " " if ifs is None else ifs[:1]
            return [(sep.join(values), QUO)]
        segs: list[Seg] = []
        kind = QUO if in_dq else EXP
        for k, v in enumerate(values):
            if k:
                segs.append(("", BRK))
            segs.append((v, kind))
        if not values and in_dq:
            segs.append(("", EMPTY_AT))
        return segs

    def _arg_segs(self, arg: str | None, in_dq: bool) -> list[Seg]:
        if not arg:
            return [("", QUO)] if in_dq else []
        segs = self.parts(parse_word(arg, ARG_DQ if in_dq else WORD), in_dq)
        if not in_dq:
            segs = [(t, EXP if k == LIT else k) for t, k in segs]
        return segs

    def _apply(self, p: Param, values: list[str] | None, multi: bool, star: bool, in_dq: bool, name: str) -> list[Seg]:
        op = p.op
        st = self.st
        if op in ("-", ":-", "=", ":=", "?", ":?", "+", ":+"):
            if values is None or (multi and not values):
                # "$@" with no positional parameters (an empty array) counts as unset
                is_null = True
                unset = True
            else:
                unset = False
                if multi and star:
                    ifs = st.get("IFS")
                    is_null = (" " if ifs is None else ifs[:1]).join(values) == ""
                else:
                    is_null = (not multi and values[0] == "") or (multi and all(v == "" for v in values) and len(values) < 2)
            use_alt = unset or (op.startswith(":") and is_null)
            if op in ("+", ":+"):
                return self._arg_segs(p.arg, in_dq) if not use_alt else []
            if not use_alt:
                return self._emit(values or [], multi, star, in_dq)
            if op in ("-", ":-"):
                return self._arg_segs(p.arg, in_dq)
            if op in ("=", ":="):
                value = "".join(t for t, k in self._arg_segs(p.arg, in_dq) if k != BRK)
                if not (name[0].isalpha() or name[0] == "_"):
                    raise FatalExpansionError(f"${name}: cannot assign in this way")
                if p.index is not None and p.index not in ("@", "*"):
                    st.set_element(name, self.string(p.index), value)
                else:
                    st.set(name, value)
                return [(value, QUO if in_dq else EXP)]
            message = "".join(t for t, k in self._arg_segs(p.arg, True) if k != BRK)
            if not message:
                message = "parameter null or not set" if op == ":?" else "parameter not set"
            raise FatalExpansionError(f"{name}: {message}")
        if values is None:
            if st.options.get("nounset") and name not in ("@", "*") and not (multi and name not in ("@", "*")):
                raise FatalExpansionError(f"{name}: unbound variable")
            if st.options.get("nounset") and multi and name not in ("@", "*") and p.index in ("@", "*"):
                raise FatalExpansionError(f"{name}[{p.index}]: unbound variable")
            values = [] if multi else None
        if not op:
            return self._emit(values or [], multi, star, in_dq) if values is not None else [("", QUO if in_dq else EXP)]
        items = list(values or [])
        if op == ":":
            return self._substring(p, items, multi, star, in_dq, name, values is None)
        if values is None:
            if op.startswith("/") or op == "@":
                # an unset parameter is not transformed (${x/#/P} and ${x@Q} stay empty)
                return [("", QUO if in_dq else EXP)]
            items = [""]
        if op in ("#", "##", "%", "%%"):
            pat = self.pattern(p.arg or "")
            items = [_remove(v, pat, op) for v in items]
        elif op in ("/", "//", "/#", "/%"):
            pat = self.pattern(p.arg or "")
            rep = self.parts(parse_word(p.arg2, WORD), False) if p.arg2 else []
            items = [self._replace(v, pat, rep, op) for v in items]
        elif op in ("^", "^^", ",", ",,", "~", "~~"):
            pat = self.pattern(p.arg) if p.arg else ""
            items = [_case(v, pat, op) for v in items]
        elif op == "@":
            items = [self._transform(v, p.arg or "", name) for v in items]
            if p.arg in ("A", "a", "K", "k") and multi:
                var = st.lookup(name)
                if p.arg == "a":
                    items = [self._transform("", "a", name)] * len(items) if items else []
                elif p.arg in ("K", "k") and var is not None:
                    pairs = zip(var.keys(), var.elements())
                    if p.arg == "K":
                        items = [" ".join(f"{k} {quote_for_shell(v)}" if var.assoc is not None else f"{k} {quote_for_shell(v)}" for k, v in pairs)]
                        multi = False
                    else:
                        items = [x for k, v in pairs for x in (k, v)]
        return self._emit(items, multi, star, in_dq)

    def _substring(self, p: Param, items: list[str], multi: bool, star: bool, in_dq: bool, name: str, unset: bool) -> list[Seg]:
        offset = self.arith(p.arg or "0") if (p.arg or "").strip() else 0
        length = None
        if p.arg2 is not None:
            length = self.arith(p.arg2) if p.arg2.strip() else 0
        if unset and not multi:
            return [("", QUO if in_dq else EXP)]
        if multi:
            seq = items
            if name in ("@", "*"):
                seq = [self.st.script_name] + items
                if offset < 0:
                    offset += len(seq)
                    if offset < 1 and len(seq) > 0:
                        offset = max(offset, 0)
            else:
                if offset < 0:
                    offset += len(seq)
            if offset < 0:
                return self._emit([], True, star, in_dq)
            if length is not None and length < 0:
                raise ExpansionError(f"{length}: substring expression < 0")
            if name not in ("@", "*"):
                var = self.st.lookup(name)
                if var is not None and var.array is not None:
                    keys = sorted(var.array)
                    chosen = [var.array[k] for k in keys if k >= offset]
                    if length is not None:
                        chosen = chosen[:length]
                    return self._emit(chosen, True, star, in_dq)
            sliced = seq[offset:] if length is None else seq[offset : offset + length]
            return self._emit(sliced, True, star, in_dq)
        value = items[0] if items else ""
        if offset < 0:
            offset += len(value)
            if offset < 0:
                return [("", QUO if in_dq else EXP)]
        if length is None:
            result = value[offset:]
        elif length < 0:
            end = len(value) + length
            if end < offset:
                raise ExpansionError(f"{length}: substring expression < 0")
            result = value[offset:end]
        else:
            result = value[offset : offset + length]
        return [(result, QUO if in_dq else EXP)]

    def _replace(self, value: str, pat: str, rep: list[Seg], op: str) -> str:
        def replacement(matched: str) -> str:
            out = []
            for t, k in rep:
                if k == LIT and "&" in t:
                    out.append(t.replace("&", matched))
                elif k not in (BRK, EMPTY_AT):
                    out.append(t)
            return "".join(out)

        if pat == "":
            if op == "/#":
                return replacement("") + value
            if op == "/%":
                return value + replacement("")
            return value
        if not pattern.has_glob(pat):
            lit = pattern.unescape(pat)
            if op == "/":
                return value.replace(lit, replacement(lit), 1)
            if op == "//":
                return value.replace(lit, replacement(lit))
            if op == "/#":
                return replacement(lit) + value[len(lit) :] if value.startswith(lit) else value
            return value[: len(value) - len(lit)] + replacement(lit) if value.endswith(lit) else value
        if op == "/#":
            for end in range(len(value), -1, -1):
                if pattern.match(pat, value[:end]):
                    return replacement(value[:end]) + value[end:]
            return value
        if op == "/%":
            for start in range(0, len(value) + 1):
                if pattern.match(pat, value[start:]):
                    return value[:start] + replacement(value[start:])
            return value
        full = pattern.compile_pattern(pat)
        search = pattern.compile_search(pat)
        out: list[str] = []
        pos, n = 0, len(value)
        while pos <= n:
            m = search.search(value, pos)
            if m is None:
                break
            start = m.start()
            end = next((e for e in range(n, start - 1, -1) if full.match(value, start, e)), m.end())
            out.append(value[pos:start])
            out.append(replacement(value[start:end]))
            if end == start:
                if start < n:
                    out.append(value[start])
                pos = start + 1
            else:
                pos = end
            if op == "/":
                break
        out.append(value[pos:])
        return "".join(out)

    def _transform(self, value: str, how: str, name: str) -> str:
        if how == "Q":
            return quote_for_shell(value)
        if how == "E":
            return decode_ansi_c(value)
        if how == "U":
            return value.upper()
        if how == "u":
            return value[:1].upper() + value[1:]
        if how == "L":
            return value.lower()
        if how == "P":
            return value
        if how in ("K", "k"):
            return quote_for_shell(value)
        var = self.st.lookup(name)
        flags = ""
        if var is not None:
            flags = "".join(f for f in "aAilnrux" if (f in var.attrs) or (f == "a" and var.array is not None) or (f == "A" and var.assoc is not None) or (f == "x" and "x" in var.attrs))
            flags = "".join(dict.fromkeys(flags))
        if how == "a":
            return flags
        # A: an assignment statement that recreates the variable
        if var is not None and var.array is not None:
            body = " ".join(f"[{k}]={quote_for_shell(v)}" for k, v in zip(var.keys(), var.elements()))
            return f"declare -{flags or 'a'} {name}=({body})"
        return f"declare -{flags} {name}={quote_for_shell(value)}" if flags else f"{name}={quote_for_shell(value)}"

    # -- splitting and globbing ----------------------------------------------------------
    def split(self, segs: list[Seg]) -> list[list[Seg]]:
        ifs = self.st.get("IFS")
        if ifs is None:
            ifs = _DEFAULT_IFS
        ws = "".join(c for c in ifs if c in " \t\n")
        fields: list[list[Seg]] = []
        cur: list[Seg] = []
        exists = False
        last_delim: str | None = None
        for text, kind in segs:
            if kind == EMPTY_AT:
                continue
            if kind == BRK:
                if exists:
                    fields.append(cur)
                cur, exists, last_delim = [], False, None
                continue
            if kind != EXP or not ifs or not any(c in text for c in ifs):
                if kind == QUO:
                    exists = True
                if text:
                    cur.append((text, kind))
                    exists = True
                    last_delim = None
                continue
            if ws == ifs:
                # Whitespace only (the default): runs of it delimit, as the loop below reads
                # them, found in C (a character at a time, 1 MB of words took seconds).
                for index, piece in enumerate(re.split(f"[{ifs}]+", text)):
                    if index:
                        if exists:
                            fields.append(cur)
                            cur, exists = [], False
                        last_delim = "ws"
                    if piece:
                        cur.append((piece, EXP))
                        exists = True
                        last_delim = None
                continue
            buf: list[str] = []
            for ch in text:
                if ch not in ifs:
                    buf.append(ch)
                    last_delim = None
                    continue
                if buf:
                    cur.append(("".join(buf), EXP))
                    buf = []
                    exists = True
                if ch in ws:
                    if exists:
                        fields.append(cur)
                        cur, exists = [], False
                        last_delim = "ws"
                else:
                    if last_delim == "ws":
                        last_delim = "nonws"
                    else:
                        fields.append(cur)
                        cur, exists = [], False
                        last_delim = "nonws"
            if buf:
                cur.append(("".join(buf), EXP))
                exists = True
        if exists:
            fields.append(cur)
        return fields

    def glob_field(self, field: list[Seg]) -> list[str]:
        text = "".join(t for t, _ in field)
        st = self.st
        if st.options.get("noglob"):
            return [text]
        if not any(k != QUO and any(c in t for c in "*?[(") for t, k in field):
            return [text]
        pat = "".join(glob_escape(t) if k == QUO else (t.replace("\\", "\\\\") if k == EXP else t) for t, k in field)
        # bash takes ``+( @( !(`` for a pattern even with extglob off, and then matches
        # their ``(`` as itself (with nullglob, ``@(`` that names no file goes away)
        if not pattern.has_glob(pat):
            return [text]
        if not st.shopts.get("extglob"):
            pat = pattern.without_extglob(pat)
        matches = self.sh.glob(pat)
        if matches:
            return matches
        if st.shopts.get("failglob"):
            raise ExpansionError(f"no match: {text}")
        if st.shopts.get("nullglob"):
            return []
        return [pattern.unescape(pat) if any(k == LIT for _, k in field) else text]


_NOT_PLAIN_VARIABLES = frozenset({"PIPESTATUS", "FUNCNAME", "BASH_SOURCE", "BASH_LINENO"})
"""Names ``Expander.values`` answers from the shell's own state, not from a variable."""


def _plain_variable(part: Part) -> bool:
    return (isinstance(part, Param) and not part.prefix and not part.op and part.index is None
            and (part.name[0].isalpha() or part.name[0] == "_") and part.name not in _NOT_PLAIN_VARIABLES)


@lru_cache(maxsize=4096)
def _simple_word(text: str) -> tuple[bool, tuple[tuple[str, bool], ...]] | None:
    """A word that is ``$name`` alone or one double-quoted string of text and ``$name``s (``"line
    $i"``, ``"$f"``), as (quoted, its pieces: text, or a name to read); None for any other.
    Such words are most of a loop's, and the general way (parts, segments, splitting, the
    glob check) took most of the time of a command like ``echo "line $i"``."""
    parts = parse_word(text, WORD)
    if len(parts) != 1:
        return None
    part = parts[0]
    if _plain_variable(part):
        assert isinstance(part, Param)
        return False, ((part.name, True),)
    if isinstance(part, DQ) and part.parts and all(
            isinstance(p, (Lit, Quoted)) or _plain_variable(p) for p in part.parts):
        return True, tuple((p.name, True) if isinstance(p, Param) else (p.text, False)
                           for p in part.parts if isinstance(p, (Param, Lit, Quoted)))
    return None


def _assignment_tildes(parts: tuple[Part, ...]) -> tuple[Part, ...]:
    """In assignments, ``~`` also expands after ``=``-less start and after each ``:``."""
    out: list[Part] = []
    for part in parts:
        if isinstance(part, Lit) and "~" in part.text:
            pieces = part.text.split(":")
            for k, piece in enumerate(pieces):
                if k:
                    out.append(Lit(":"))
                if piece.startswith("~") and (k > 0 or not out):
                    user, slash, rest = piece[1:].partition("/")
                    if re.match(r"[A-Za-z0-9_.+-]*\Z", user):
                        out.append(Tilde(user))
                        if slash or rest:
                            out.append(Lit("/" + rest))
                        continue
                out.append(Lit(piece))
        else:
            out.append(part)
    return tuple(out)


_ERE_QUOTED = re.compile(r"[.\[\\()*+?{|^$]")
_ASSIGNMENT_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=")


def _argument_assignment_tildes(parts: tuple[Part, ...]) -> tuple[Part, ...]:
    """Outside posix mode bash expands ``~`` in an argument shaped like an assignment
    (``echo x=~``) as in the assignment itself: after its ``=`` and after each ``:``."""
    if not parts or not isinstance(parts[0], Lit):
        return parts
    m = _ASSIGNMENT_WORD.match(parts[0].text)
    if m is None:
        return parts
    rest = parts[0].text[m.end():]
    value = ((Lit(rest),) if rest else ()) + tuple(parts[1:])
    return (Lit(m.group(0)),) + _assignment_tildes(value)


def _remove(value: str, pat: str, op: str) -> str:
    if not pattern.has_glob(pat):
        lit = pattern.unescape(pat)
        if op in ("#", "##"):
            return value[len(lit) :] if value.startswith(lit) else value
        return value[: len(value) - len(lit)] if lit and value.endswith(lit) else value
    rx = pattern.compile_pattern(pat)
    n = len(value)
    if op == "#":
        for k in range(0, n + 1):
            if rx.match(value[:k]):
                return value[k:]
    elif op == "##":
        for k in range(n, -1, -1):
            if rx.match(value[:k]):
                return value[k:]
    elif op == "%":
        for k in range(n, -1, -1):
            if rx.match(value[k:]):
                return value[:k]
    else:
        for k in range(0, n + 1):
            if rx.match(value[k:]):
                return value[:k]
    return value


def _case(value: str, pat: str, op: str) -> str:
    upper = op.startswith("^")
    convert: Callable[[str], str] = str.swapcase if op.startswith("~") else (str.upper if upper else str.lower)
    out = []
    for k, ch in enumerate(value):
        if (op in ("^^", ",,", "~~") or k == 0) and (not pat or pattern.match(pat, ch)):
            out.append(convert(ch))
        else:
            out.append(ch)
    return "".join(out)


__all__ = ["Expander", "quote_for_shell", "BashError", "Var", "DQUOTE"]
