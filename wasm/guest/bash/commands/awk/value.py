"""awk values: numbers, strings, numeric strings, and their conversions (mawk 1.3.4 rules).

A value is a ``float`` (number), a ``str`` (string) or a ``StrNum`` (a string from input
that looks numeric; it compares numerically). ``UNINIT`` is the uninitialised value: it is
both "" and 0.
"""

from __future__ import annotations

import math
import re

MAX_INT = 2147483647


class StrNum(str):
    """A string from input (fields, getline, split, -v) that looks like a number."""

    num: float


UNINIT = StrNum("")
UNINIT.num = 0.0

# mawk decides with strtod plus a check that the text ends in a digit or ".": so "0x10"
# and "0x1.8" are numeric input but "0xff" is not.
_LOOKS_NUMERIC = re.compile(
    r"[ \t\n\r\f\v]*[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?"
    r"|0[xX](?:[0-9a-fA-F]*\.?[0-9a-fA-F]*[0-9.]|[0-9a-fA-F]*\.?[0-9a-fA-F]*[pP][-+]?\d+))"
    r"[ \t\n\r\f\v]*\Z")
_STRTOD = re.compile(
    r"[ \t\n\r\f\v]*([-+]?(?:0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][-+]?\d+)?"
    r"|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|inf(?:inity)?|nan))", re.IGNORECASE)


def mkfield(text: str) -> str:
    """Wrap input text: numeric-looking text becomes a StrNum."""
    if text.isascii() and text.isdigit():  # most numeric fields: no regular expression
        value = StrNum(text)
        value.num = float(text)
        return value
    if text and _LOOKS_NUMERIC.match(text):
        value = StrNum(text)
        value.num = strtod(text)
        return value
    return text


def strtod(text: str) -> float:
    m = _STRTOD.match(text)
    if m is None:
        return 0.0
    s = m.group(1)
    low = s.lower().lstrip("+-")
    if low.startswith("0x"):
        sign = -1.0 if s.startswith("-") else 1.0
        try:
            return sign * float.fromhex(low)
        except ValueError:
            return 0.0
    try:
        return float(s)
    except ValueError:
        return 0.0


def to_num(v: object) -> float:
    if isinstance(v, float):
        return v
    if isinstance(v, StrNum):
        return v.num
    if isinstance(v, str):
        return strtod(v) if v else 0.0
    return 0.0


def fmt_special(x: float) -> str | None:
    if math.isnan(x):
        return "-nan" if math.copysign(1.0, x) < 0 else "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return None


def num_to_str(x: float, fmt: str) -> str:
    if x == int(x) if not (math.isinf(x) or math.isnan(x)) else False:
        if -MAX_INT <= x <= MAX_INT:
            return str(int(x))
    special = fmt_special(x)
    if special is not None:
        return special
    try:
        return fmt % x
    except (TypeError, ValueError):
        return "%.6g" % x


def to_bool(v: object) -> bool:
    if type(v) is float:
        return v != 0.0
    if isinstance(v, StrNum):
        return v.num != 0.0
    return v != ""


def is_numeric(v: object) -> bool:
    return type(v) is float or isinstance(v, StrNum)


def d_to_int(d: float) -> int:
    """mawk's d_to_i: truncate toward zero, clamped to +-MAX_INT."""
    if d != d:
        return 0
    if d >= MAX_INT:
        return MAX_INT
    if d > -MAX_INT:
        return int(d)
    return -MAX_INT


class Glibc:
    """glibc ``random()`` (TYPE_3 additive feedback), which mawk's rand() uses on Debian."""

    def __init__(self, seed: int = 1) -> None:
        self.window: list[int] = []
        self.seed(seed)

    def seed(self, seed: int) -> None:
        seed &= 0xFFFFFFFF
        if seed == 0:
            seed = 1
        # Every awk run starts seeded with 0 (read as 1): that window is worked out once,
        # at import, not by each run's 340 steps of the recurrence (a fifth of a small
        # `... | awk '{print $1}'`, most of it in a run that never calls rand()).
        known = _SEEDED.get(seed)
        self.window = known[:] if known is not None else _seeded_window(seed)

    def random(self) -> int:
        return _advance(self.window) >> 1


def _advance(window: list[int]) -> int:
    """One step of the recurrence over the rolling window of its last 34 outputs."""
    value = (window[-31] + window[-3]) & 0xFFFFFFFF
    window.append(value)
    if len(window) > 64:
        del window[:-34]
    return value


def _seeded_window(seed: int) -> list[int]:
    """glibc's ``srandom(seed)``: the last 34 outputs of the recurrence, 310 steps on."""
    r = [0] * 34
    r[0] = seed if seed < 2**31 else seed - 2**32
    for i in range(1, 31):
        hi, lo = divmod(r[i - 1], 127773) if r[i - 1] >= 0 else (-((-r[i - 1]) // 127773), -((-r[i - 1]) % 127773))
        word = 16807 * lo - 2836 * hi
        if word < 0:
            word += 2147483647
        r[i] = word
    for i in range(31, 34):
        r[i] = r[i - 31]
    window = [x & 0xFFFFFFFF for x in r[:34]]
    for _ in range(310):
        _advance(window)
    return window


_SEEDED = {1: _seeded_window(1)}
"""The window after seeding, for the seed every run starts with."""
