"""The one decoder of backslash escapes (``\\n``, ``\\t``, ``\\101``, ``\\x41``, ``\\u00e9`` ...).

Bash and its commands each accept a slightly different dialect of the same C escapes, so
there is one loop, ``decode``, and the differences are its keyword parameters:

=================  ========================================================================
``simple``         the one-letter escapes and what they stand for (``C_ESCAPES``, optionally
                   plus ``QUOTE_ESCAPES`` for ``\\'``, ``\\"`` and ``\\?``)
``octal``          ``"plain"``: ``\\N``, ``\\NN``, ``\\NNN`` (printf's format, ``$'...'``);
                   ``"zero"``: ``\\0`` then up to three digits (``echo -e``);
                   ``"zero_or_plain"``: either of those (printf ``%b``); ``"none"``
``hex_digits``     how many digits ``\\xHH`` takes at most (0: ``\\x`` is not an escape)
``unicode``        whether ``\\uHHHH`` and ``\\UHHHHHHHH`` give a Unicode character
``backslash_c``    ``"literal"``: ``\\c`` stays as written; ``"stop"``: nothing after it is
                   output (echo, ``%b``); ``"control"``: ``\\cX`` is control-X (``$'...'``)
``byte_values``    what an octal or hex escape gives: ``"raw"``, the single byte (as the
                   ``surrogateescape`` character ``raw_byte`` returns, so encoding the
                   result with ``surrogateescape`` yields exactly that byte), or
                   ``"codepoint"``, the character with that code point
``unknown``        ``"keep"``: an unknown escape ``\\q`` stays ``\\q``; ``"drop"``: it
                   becomes ``q``
``octal_overflow`` ``"wrap"``: an octal value over 255 wraps to one byte (bash);
                   ``"stop"``: its last digit is not part of it (``tr``: ``\\777`` is
                   ``\\77`` then ``7``)
=================  ========================================================================

A backslash at the very end of the text is kept. Octal values wrap to one byte (``\\777``
is ``\\377``), as in bash, unless ``octal_overflow`` says otherwise. An escape with no
digits (``\\x`` alone) stays as written.

The shell's own dialects are named functions below (``decode_echo``, ``decode_printf_format``,
``decode_printf_b``, ``decode_ansi_c``); a command with a dialect of its own calls
``decode`` with the parameters that describe it, or ``decode_at`` for one escape inside a
format that has directives of its own.
"""

from __future__ import annotations

from typing import Literal, Mapping, NamedTuple

__all__ = [
    "C_ESCAPES", "QUOTE_ESCAPES", "Decoded", "decode", "decode_ansi_c", "decode_at", "decode_echo",
    "decode_printf_b", "decode_printf_format", "raw_byte",
]

C_ESCAPES: Mapping[str, str] = {
    "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
    "v": "\v", "\\": "\\",
}
"""The one-letter escapes every dialect shares (``\\e`` and ``\\E`` are ESC)."""

QUOTE_ESCAPES: Mapping[str, str] = {**C_ESCAPES, "'": "'", '"': '"', "?": "?"}
"""``C_ESCAPES`` plus C's ``\\'``, ``\\"`` and ``\\?`` (printf's format and ``$'...'``)."""

OctalForm = Literal["plain", "zero", "zero_or_plain", "none"]
BackslashC = Literal["literal", "stop", "control"]
ByteValues = Literal["raw", "codepoint"]
UnknownEscape = Literal["keep", "drop"]
OctalOverflow = Literal["wrap", "stop"]

_OCTAL_DIGITS = frozenset("01234567")
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


class Decoded(NamedTuple):
    """What ``decode`` returns: the text, and whether a ``\\c`` stopped it (``"stop"`` only)."""

    text: str
    stopped: bool


def raw_byte(value: int) -> str:
    """One raw byte as text: bytes >= 0x80 become the surrogate that ``surrogateescape``
    turns back into exactly that byte (so a literal ``é`` stays UTF-8 while ``\\351`` is the
    single byte 0xE9, as in bash)."""
    return chr(value) if value < 0x80 else chr(0xDC00 + value)


def decode(
    text: str,
    *,
    simple: Mapping[str, str] = C_ESCAPES,
    octal: OctalForm = "plain",
    hex_digits: int = 2,
    unicode: bool = True,
    backslash_c: BackslashC = "literal",
    byte_values: ByteValues = "raw",
    unknown: UnknownEscape = "keep",
    octal_overflow: OctalOverflow = "wrap",
) -> Decoded:
    """Decode the backslash escapes of ``text`` in the dialect the parameters describe
    (see the module docstring)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        if text[i + 1] == "c" and backslash_c == "stop":
            return Decoded("".join(out), True)
        piece, i = decode_at(text, i, simple=simple, octal=octal, hex_digits=hex_digits,
                             unicode=unicode, backslash_c=backslash_c, byte_values=byte_values,
                             unknown=unknown, octal_overflow=octal_overflow)
        out.append(piece)
    return Decoded("".join(out), False)


def decode_at(
    text: str,
    i: int,
    *,
    simple: Mapping[str, str] = C_ESCAPES,
    octal: OctalForm = "plain",
    hex_digits: int = 2,
    unicode: bool = True,
    backslash_c: BackslashC = "literal",
    byte_values: ByteValues = "raw",
    unknown: UnknownEscape = "keep",
    octal_overflow: OctalOverflow = "wrap",
) -> tuple[str, int]:
    """The one escape at ``text[i]`` (a backslash with at least one character after it):
    what it stands for, and the index just after it.

    For formats that mix escapes with directives of their own (``stat --printf``, ``find
    -printf``, ``tr``'s sets), which must decode one escape at a time. ``backslash_c="stop"``
    is the caller's to act on (``decode`` stops before calling this).
    """
    as_char = raw_byte if byte_values == "raw" else chr
    n = len(text)
    e = text[i + 1]
    if e in simple:
        return simple[e], i + 2
    if e == "c" and backslash_c == "control" and i + 2 < n:
        return chr(ord(text[i + 2]) & 0x1F), i + 3
    if e in _OCTAL_DIGITS and _octal_applies(octal, e):
        # "zero" forms count their (up to) three digits after the leading 0
        start = i + 2 if e == "0" and octal in ("zero", "zero_or_plain") else i + 1
        end = _scan(text, start, 3, _OCTAL_DIGITS)
        value = int(text[start:end] or "0", 8)
        if octal_overflow == "stop" and value > 0xFF:
            value, end = value // 8, end - 1
        return as_char(value & 0xFF), end
    if e == "x" and hex_digits > 0 or e in "uU" and unicode:
        end = _scan(text, i + 2, {"x": hex_digits, "u": 4, "U": 8}[e], _HEX_DIGITS)
        if end == i + 2:
            return "\\" + e, i + 2
        value = int(text[i + 2 : end], 16)
        return (as_char(value) if e == "x" else chr(value)), end
    return (e if unknown == "drop" else "\\" + e), i + 2


def _octal_applies(form: OctalForm, first: str) -> bool:
    if form == "plain" or form == "zero_or_plain":
        return True
    return form == "zero" and first == "0"


def _scan(text: str, start: int, limit: int, digits: frozenset[str]) -> int:
    """The index after the run of at most ``limit`` ``digits`` that starts at ``start``."""
    end = start
    stop = min(len(text), start + limit)
    while end < stop and text[end] in digits:
        end += 1
    return end


def decode_echo(text: str) -> Decoded:
    """``echo -e``: C escapes, ``\\0NNN``, ``\\xHH``, ``\\u``/``\\U``; ``\\c`` ends the output."""
    return decode(text, octal="zero", backslash_c="stop")


def decode_printf_b(text: str) -> Decoded:
    """printf's ``%b`` argument: like ``echo -e``, and ``\\NNN`` without the leading 0 too."""
    return decode(text, octal="zero_or_plain", backslash_c="stop")


def decode_printf_format(text: str) -> str:
    """printf's format string: C escapes with quotes, ``\\NNN``, ``\\xHH``, ``\\u``/``\\U``."""
    return decode(text, simple=QUOTE_ESCAPES).text


def decode_ansi_c(body: str) -> str:
    """The body of a ``$'...'`` string (``${x@E}`` too): like printf's format, plus ``\\cX``.

    Octal and hex escapes give the code point, not a raw byte (``$'\\351'`` is ``é``).
    Shell strings cannot hold NUL, so, as in bash, the value ends at the first one.
    """
    decoded = decode(body, simple=QUOTE_ESCAPES, backslash_c="control", byte_values="raw")
    return decoded.text.split("\x00", 1)[0]
