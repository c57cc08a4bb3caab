"""bc's arbitrary-precision decimal numbers: a scaled integer with bc's truncating rules.

A ``Num`` is ``n / 10**scale``. Every operation follows the result-scale rules of POSIX bc
(GNU's implementation): addition keeps the larger scale, multiplication keeps
``min(sa + sb, max(scale, sa, sb))``, division produces exactly ``scale`` digits, and
results are truncated toward zero, never rounded.
"""

from __future__ import annotations

from dataclasses import dataclass

DIGITS = "0123456789ABCDEF"
MAX_DIGITS = 1_000_000
"""Largest exact power we compute; beyond it ``^`` is a runtime error (a sandbox limit)."""


class BcMathError(Exception):
    """A runtime error inside arithmetic (divide by zero, bad exponent...)."""


@dataclass(frozen=True)
class Num:
    n: int
    scale: int = 0
    negative_zero: bool = False
    """GNU keeps the sign when ``^`` truncates a negative result to zero: it prints ``-0``."""

    @staticmethod
    def of(value: int) -> "Num":
        return Num(value, 0)

    def rescale(self, scale: int) -> "Num":
        """Change the scale, truncating toward zero when digits are dropped."""
        if scale == self.scale:
            return self
        if scale > self.scale:
            return Num(self.n * 10 ** (scale - self.scale), scale)
        return Num(_tdiv(self.n, 10 ** (self.scale - scale)), scale)

    def is_zero(self) -> bool:
        return self.n == 0

    def to_int(self) -> int:
        return _tdiv(self.n, 10**self.scale)

    def sign(self) -> int:
        return (self.n > 0) - (self.n < 0)

    def compare(self, other: "Num") -> int:
        scale = max(self.scale, other.scale)
        a, b = self.rescale(scale).n, other.rescale(scale).n
        return (a > b) - (a < b)

    def add(self, other: "Num") -> "Num":
        scale = max(self.scale, other.scale)
        return Num(self.rescale(scale).n + other.rescale(scale).n, scale)

    def sub(self, other: "Num") -> "Num":
        scale = max(self.scale, other.scale)
        return Num(self.rescale(scale).n - other.rescale(scale).n, scale)

    def mul(self, other: "Num", scale: int) -> "Num":
        full = Num(self.n * other.n, self.scale + other.scale)
        return full.rescale(min(self.scale + other.scale, max(scale, self.scale, other.scale)))

    def div(self, other: "Num", scale: int) -> "Num":
        if other.n == 0:
            raise BcMathError("Divide by zero")
        numerator = self.n * 10 ** (other.scale + scale)
        denominator = other.n * 10**self.scale
        return Num(_tdiv(numerator, denominator), scale)

    def mod(self, other: "Num", scale: int) -> "Num":
        if other.n == 0:
            raise BcMathError("Modulo by zero")
        rscale = max(self.scale, other.scale + scale)
        quotient = self.div(other, scale)
        product = quotient.mul(other, rscale)
        remainder = self.sub(product)
        return remainder.rescale(max(remainder.scale, rscale))

    def power(self, exponent: "Num", scale: int) -> "Num":
        power = exponent.to_int()
        if power == 0:
            return Num(1, 0)
        # An exact power with millions of digits would stall the isolate (GNU just grinds).
        if abs(power) * max(len(str(abs(self.n))), self.scale + 1) > MAX_DIGITS:
            raise BcMathError("exponent too large in raise")
        if power < 0:
            # 1 / x^n with x^n exact (GNU's repeated squaring never truncates).
            return Num(1, 0).div(Num(self.n ** -power, self.scale * -power), scale)
        rscale = min(self.scale * power, max(scale, self.scale))
        full = Num(self.n**power, self.scale * power)
        result = full.rescale(rscale)
        if result.n == 0 and full.n < 0:
            return Num(0, rscale, negative_zero=True)
        return result

    def sqrt(self, scale: int) -> "Num":
        if self.n < 0:
            raise BcMathError("Square root of a negative number")
        if self.n == 0 or self.compare(Num(1)) == 0:
            # GNU returns 0 and 1 themselves, with scale 0.
            return Num(self.n // 10**self.scale, 0)
        rscale = max(scale, self.scale)
        # isqrt of n * 10^(2*rscale - scale) gives the root with rscale digits, truncated.
        shifted = self.n * 10 ** (2 * rscale - self.scale) if 2 * rscale >= self.scale else self.n // 10 ** (self.scale - 2 * rscale)
        return Num(_isqrt(shifted), rscale)

    def length(self) -> int:
        """Significant decimal digits, as bc's ``length()``."""
        if self.n == 0:
            return max(1, self.scale) if self.scale else 1
        digits = len(str(abs(self.n)))
        return max(digits, self.scale)

    def format(self, base: int) -> str:
        if self.n == 0:
            return "-0" if self.negative_zero else "0"
        sign = "-" if self.n < 0 else ""
        magnitude = abs(self.n)
        if base == 10:
            text = str(magnitude)
            if self.scale:
                text = text.rjust(self.scale + 1, "0")
                whole, frac = text[: -self.scale], text[-self.scale :]
                whole = "" if whole == "0" else whole
                return sign + whole + "." + frac
            return sign + text
        return sign + _format_base(Num(magnitude, self.scale), base)


def _tdiv(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b >= 0) else -quotient


def _isqrt(value: int) -> int:
    if value <= 0:
        return 0
    x = 1 << ((value.bit_length() + 1) // 2)
    while True:
        y = (x + value // x) // 2
        if y >= x:
            return x
        x = y


def _format_base(value: Num, base: int) -> str:
    whole = value.n // 10**value.scale
    frac = Num(value.n - whole * 10**value.scale, value.scale)
    width = len(str(base - 1))
    digits: list[int] = []
    while whole:
        whole, digit = divmod(whole, base)
        digits.append(digit)
    digits.reverse()
    if base <= 16:
        text = "".join(DIGITS[d] for d in digits)
    else:
        text = "".join(" " + str(d).rjust(width, "0") for d in digits)
    if value.scale:
        text += "."
        place = 1
        first = True
        while len(str(place)) <= value.scale:
            product = frac.n * base
            digit = product // 10**value.scale
            frac = Num(product - digit * 10**value.scale, value.scale)
            if base <= 16:
                text += DIGITS[digit]
            else:
                text += ("" if first else " ") + str(digit).rjust(width, "0")
            first = False
            place *= base
    return text


def parse_number(text: str, ibase: int) -> Num:
    """A numeric literal in ``ibase`` (digits 0-9 and A-F, each worth its face value)."""
    whole, _, frac = text.partition(".")
    if ibase == 10:
        digits = (whole or "0") + frac
        if all((c.isascii() and c.isdigit()) for c in digits):
            return Num(int(digits), len(frac))
    if len(text) == 1 and text != ".":
        return Num(DIGITS.index(text), 0)
    value = 0
    for c in whole:
        value = value * ibase + DIGITS.index(c)
    result = Num(value, 0)
    if frac:
        numerator = 0
        for c in frac:
            numerator = numerator * ibase + DIGITS.index(c)
        fraction = Num(numerator, 0).div(Num(ibase ** len(frac), 0), len(frac))
        result = result.add(fraction)
    return result
