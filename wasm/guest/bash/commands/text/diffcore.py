"""The line-matching core of ``diff``: which lines of each file are changed.

This follows the algorithm GNU diffutils uses so that, for equal-cost edit scripts, we pick
the same one GNU does: lines with no counterpart in the other file are set aside first, the
rest is compared with Myers' divide-and-conquer "middle snake" search (forward and backward
passes in lock step), and finally runs of changes are slid along runs of equal lines the way
GNU's ``shift_boundaries`` does. GNU's extra heuristics for very large inputs (provisional
discards, giving up on costly searches) are not reproduced; they only matter for big files.
"""

from __future__ import annotations

from typing import Callable

TOO_EXPENSIVE_CAP = 256


def changed_lines(a: list[object], b: list[object], raw_a: list[bytes] | None = None,
                  raw_b: list[bytes] | None = None, horizon: int = 0,
                  tick: Callable[[], None] | None = None) -> tuple[list[bool], list[bool]]:
    """Return per-line "changed" flags for ``a`` and ``b`` (lists of hashable line keys).

    ``raw_a``/``raw_b`` are the lines as read: like GNU, identical leading and trailing runs
    of raw lines are set aside (all but ``horizon`` lines of each), which bounds how far
    ``shift_boundaries`` may slide a change. ``tick`` is called as the search deepens, so
    a deadline can interrupt a very costly comparison.
    """
    raw_a = raw_a if raw_a is not None else [repr(x).encode() for x in a]
    raw_b = raw_b if raw_b is not None else [repr(x).encode() for x in b]
    prefix = 0
    limit = min(len(raw_a), len(raw_b))
    while prefix < limit and raw_a[prefix] == raw_b[prefix]:
        prefix += 1
    suffix = 0
    while (suffix < limit - prefix and raw_a[len(raw_a) - 1 - suffix] == raw_b[len(raw_b) - 1 - suffix]):
        suffix += 1
    lo = prefix - min(prefix, horizon)
    keep_suffix = min(suffix, horizon)
    hi_a = len(a) - suffix + keep_suffix
    hi_b = len(b) - suffix + keep_suffix
    inner_a, inner_b = _changed_region(a[lo:hi_a], b[lo:hi_b], tick or (lambda: None))
    flags_a = [False] * len(a)
    flags_b = [False] * len(b)
    flags_a[lo:hi_a] = inner_a
    flags_b[lo:hi_b] = inner_b
    return flags_a, flags_b


def _changed_region(a: list[object], b: list[object], tick: Callable[[], None]) -> tuple[list[bool], list[bool]]:
    classes: dict[object, int] = {}
    ea = [classes.setdefault(x, len(classes)) for x in a]
    eb = [classes.setdefault(x, len(classes)) for x in b]
    count_a: dict[int, int] = {}
    count_b: dict[int, int] = {}
    for c in ea:
        count_a[c] = count_a.get(c, 0) + 1
    for c in eb:
        count_b[c] = count_b.get(c, 0) + 1
    changed_a = [False] * len(ea)
    changed_b = [False] * len(eb)
    # Lines that occur nowhere in the other file are certainly changed; leaving them out
    # of the search is what GNU does, and it steers ties the same way.
    keep_a = [i for i, c in enumerate(ea) if count_b.get(c, 0)]
    keep_b = [i for i, c in enumerate(eb) if count_a.get(c, 0)]
    for i, c in enumerate(ea):
        if not count_b.get(c, 0):
            changed_a[i] = True
    for i, c in enumerate(eb):
        if not count_a.get(c, 0):
            changed_b[i] = True
    xs = [ea[i] for i in keep_a]
    ys = [eb[i] for i in keep_b]
    flags_x = [False] * len(xs)
    flags_y = [False] * len(ys)
    _Compare(xs, ys, flags_x, flags_y, tick).run()
    for index, flag in enumerate(flags_x):
        if flag:
            changed_a[keep_a[index]] = True
    for index, flag in enumerate(flags_y):
        if flag:
            changed_b[keep_b[index]] = True
    _shift_boundaries(ea, changed_a, changed_b)
    _shift_boundaries(eb, changed_b, changed_a)
    return changed_a, changed_b


class _Compare:
    def __init__(self, xs: list[int], ys: list[int], fx: list[bool], fy: list[bool],
                 tick: Callable[[], None]) -> None:
        self.tick = tick
        self.xs = xs
        self.ys = ys
        self.fx = fx
        self.fy = fy
        size = len(xs) + len(ys) + 3
        # GNU gives up on a minimal script once the edit cost reaches about the square root
        # of the input size (at least 4096); Python is slower, so we stop at 256 at most.
        # Diffs that costly may then differ from GNU's (still correct) output.
        expensive = 1
        diagonals = len(xs) + len(ys) + 3
        while diagonals:
            expensive <<= 1
            diagonals >>= 2
        self.too_expensive = min(max(4096, expensive), TOO_EXPENSIVE_CAP)
        self.fd = [0] * (2 * size + 2)
        self.bd = [0] * (2 * size + 2)
        self.offset = len(ys) + 1

    def run(self) -> None:
        # An explicit work stack instead of GNU's recursion: no depth limit to worry about.
        stack = [(0, len(self.xs), 0, len(self.ys))]
        while stack:
            xoff, xlim, yoff, ylim = stack.pop()
            xs, ys = self.xs, self.ys
            while xoff < xlim and yoff < ylim and xs[xoff] == ys[yoff]:
                xoff += 1
                yoff += 1
            while xlim > xoff and ylim > yoff and xs[xlim - 1] == ys[ylim - 1]:
                xlim -= 1
                ylim -= 1
            if xoff == xlim:
                for y in range(yoff, ylim):
                    self.fy[y] = True
            elif yoff == ylim:
                for x in range(xoff, xlim):
                    self.fx[x] = True
            else:
                xmid, ymid = self._diag(xoff, xlim, yoff, ylim)
                stack.append((xmid, xlim, ymid, ylim))
                stack.append((xoff, xmid, yoff, ymid))

    def _diag(self, xoff: int, xlim: int, yoff: int, ylim: int) -> tuple[int, int]:
        xs, ys = self.xs, self.ys
        fd, bd, off = self.fd, self.bd, self.offset
        dmin = xoff - ylim
        dmax = xlim - yoff
        fmid = xoff - yoff
        bmid = xlim - ylim
        fmin = fmax = fmid
        bmin = bmax = bmid
        odd = (fmid - bmid) & 1
        fd[fmid + off] = xoff
        bd[bmid + off] = xlim
        big = 1 << 62
        cost = 0
        while True:
            cost += 1
            if cost % 64 == 0:
                self.tick()
            if fmin > dmin:
                fmin -= 1
                fd[fmin - 1 + off] = -1
            else:
                fmin += 1
            if fmax < dmax:
                fmax += 1
                fd[fmax + 1 + off] = -1
            else:
                fmax -= 1
            d = fmax
            while d >= fmin:
                tlo = fd[d - 1 + off]
                thi = fd[d + 1 + off]
                x = thi if tlo < thi else tlo + 1
                y = x - d
                while x < xlim and y < ylim and xs[x] == ys[y]:
                    x += 1
                    y += 1
                fd[d + off] = x
                if odd and bmin <= d <= bmax and bd[d + off] <= x:
                    return x, y
                d -= 2
            if bmin > dmin:
                bmin -= 1
                bd[bmin - 1 + off] = big
            else:
                bmin += 1
            if bmax < dmax:
                bmax += 1
                bd[bmax + 1 + off] = big
            else:
                bmax -= 1
            d = bmax
            while d >= bmin:
                tlo = bd[d - 1 + off]
                thi = bd[d + 1 + off]
                x = tlo if tlo < thi else thi - 1
                y = x - d
                while x > xoff and y > yoff and xs[x - 1] == ys[y - 1]:
                    x -= 1
                    y -= 1
                bd[d + off] = x
                if not odd and fmin <= d <= fmax and x <= fd[d + off]:
                    return x, y
                d -= 2
            if cost >= self.too_expensive:
                return self._best_split(xoff, xlim, yoff, ylim, fmin, fmax, bmin, bmax)

    def _best_split(self, xoff: int, xlim: int, yoff: int, ylim: int,
                    fmin: int, fmax: int, bmin: int, bmax: int) -> tuple[int, int]:
        """GNU's give-up heuristic: split at the furthest forward or backward reach so far."""
        fd, bd, off = self.fd, self.bd, self.offset
        fxybest, fxbest = -1, 0
        for d in range(fmax, fmin - 1, -2):
            x = min(fd[d + off], xlim)
            y = x - d
            if ylim < y:
                x, y = ylim + d, ylim
            if fxybest < x + y:
                fxybest, fxbest = x + y, x
        bxybest, bxbest = 1 << 62, 0
        for d in range(bmax, bmin - 1, -2):
            x = max(xoff, bd[d + off])
            y = x - d
            if y < yoff:
                x, y = yoff + d, yoff
            if x + y < bxybest:
                bxybest, bxbest = x + y, x
        if (xlim + ylim) - bxybest < fxybest - (xoff + yoff):
            return fxbest, fxybest - fxbest
        return bxbest, bxybest - bxbest


def _shift_boundaries(equivs: list[int], changed_list: list[bool], other_list: list[bool]) -> None:
    """Slide runs of changes so they merge with neighbours and line up with the other file."""
    n = len(equivs)
    # Sentinel-padded copies: index k here is line k-1; both ends are "unchanged".
    changed = [False] + changed_list + [False]
    other = [False] + other_list + [False]
    i = 0
    j = 0
    while True:
        while i < n and not changed[i + 1]:
            while other[j + 1]:
                j += 1
            j += 1
            i += 1
        if i == n:
            break
        start = i
        i += 1
        while changed[i + 1]:
            i += 1
        while other[j + 1]:
            j += 1
        while True:
            runlength = i - start
            while start and equivs[start - 1] == equivs[i - 1]:
                start -= 1
                changed[start + 1] = True
                i -= 1
                changed[i + 1] = False
                while changed[start]:
                    start -= 1
                j -= 1
                while other[j + 1]:
                    j -= 1
            corresponding = i if other[j] else n
            while i != n and equivs[start] == equivs[i]:
                changed[start + 1] = False
                start += 1
                changed[i + 1] = True
                i += 1
                while changed[i + 1]:
                    i += 1
                j += 1
                while other[j + 1]:
                    j += 1
                    corresponding = i
            if runlength == i - start:
                break
        while corresponding < i:
            start -= 1
            changed[start + 1] = True
            i -= 1
            changed[i + 1] = False
            j -= 1
            while other[j + 1]:
                j -= 1
    changed_list[:] = changed[1:-1]
