"""``set -x``: the trace lines bash 5.2 writes to stderr, word for word.

bash quotes a traced word only when it must (``print_cmd.c``'s ``xtrace_print_word_list``):
a word holding a shell metacharacter is single-quoted, one holding a non-printable
character is written ``$'...'``, anything else goes out as it is; an assignment's value
follows the same rules except that an empty value stays empty (``c=``). The prefix is PS4,
expanded anew for each line, whose first character is repeated once more per level of
``eval``, ``source`` and ``$(...)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import BashError

if TYPE_CHECKING:
    from .evaluate import Shell
    from .redirects import IO

# sh_contains_shell_metas (lib/sh/shquote.c); `~` and `#` only count where they would act
_METAS = frozenset(" \t\n'\"\\|&;()<>!{}*[?]^$`")
_ANSIC_LETTERS = {"\x1b": "E", "\a": "a", "\v": "v", "\b": "b", "\f": "f", "\n": "n", "\r": "r", "\t": "t"}
_MAX_PREFIX = 99  # indirection_level_string's buffer


def _has_metas(text: str) -> bool:
    for k, c in enumerate(text):
        if c in _METAS:
            return True
        if c == "~" and (k == 0 or text[k - 1] in "=:"):
            return True
        if c == "#" and k == 0:
            return True
    return False


def _printable(c: str) -> bool:
    # the sandbox speaks UTF-8: a character is printable as the C.UTF-8 locale has it; a
    # byte that is no character (kept as a lone surrogate) never is
    return c.isprintable() and not "\udc80" <= c <= "\udcff"


def single_quote(text: str) -> str:
    """bash's ``sh_single_quote``: a lone quote is ``\\'``, anything else goes in ``'...'``."""
    if text == "'":
        return "\\'"
    return "'" + text.replace("'", "'\\''") + "'"


def ansic_quote(text: str) -> str:
    """bash's ``ansic_quote``: ``$'...'`` with C escapes and octal for what cannot print."""
    out: list[str] = []
    for c in text:
        if c in _ANSIC_LETTERS:
            out.append("\\" + _ANSIC_LETTERS[c])
        elif c in "'\\":
            out.append("\\" + c)
        elif _printable(c):
            out.append(c)
        else:
            raw = c.encode("utf-8", "surrogateescape")
            out.append("".join(f"\\{b:03o}" for b in raw))
    return "$'" + "".join(out) + "'"


def word(text: str) -> str:
    """One word of a traced command."""
    if text == "":
        return "''"
    if _has_metas(text):
        return single_quote(text)
    if not all(_printable(c) for c in text):
        return ansic_quote(text)
    return text


def value(text: str) -> str:
    """The value of a traced assignment (``xtrace_print_assignment``): empty stays empty."""
    return "" if text == "" else word(text)


def command(argv: list[str]) -> str:
    return " ".join(word(a) for a in argv)


def declared_list(items: list[tuple[str | None, bool, str]]) -> str:
    """The elements of a declaration's ``name=(...)`` as bash shows them once expanded:
    every key and value single-quoted (``quote_compound_array_word``)."""
    parts = []
    for key, plus, text in items:
        if key is None:
            parts.append(single_quote(text))
        else:
            parts.append(f"[{single_quote(key)}]{'+=' if plus else '='}{single_quote(text)}")
    return "(" + " ".join(parts) + ")"


def prefix(sh: Shell) -> str:
    """PS4 expanded, its first character repeated for each level below the top."""
    st = sh.state
    ps4 = st.get("PS4")
    if not ps4:
        return ""
    if "$" in ps4 or "`" in ps4:
        tracing = st.options.get("xtrace", False)
        st.options["xtrace"] = False  # a $(...) in PS4 is not traced itself
        try:
            ps4 = sh.expander.string(ps4)
        except BashError:
            pass
        finally:
            st.options["xtrace"] = tracing
    if not ps4:
        return ""
    level = st.subst_depth + st.trace_depth
    return (ps4[0] * level + ps4)[:_MAX_PREFIX]


def emit(sh: Shell, io: IO, text: str) -> None:
    """Write one trace line (``text`` already quoted) to the shell's stderr."""
    io.out(2).write((prefix(sh) + text + "\n").encode("utf-8", "surrogateescape"))


def active(sh: Shell) -> bool:
    return bool(sh.state.options.get("xtrace"))
