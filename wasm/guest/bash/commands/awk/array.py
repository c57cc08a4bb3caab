"""awk arrays with mawk 1.3.4's layout, so ``for (k in a)`` visits keys in mawk's order.

mawk keeps an array as a "split" vector (made by split()), or as hash tables keyed by
integer and/or by string (FNV-1 hash, 64 chains to start, doubled when the average chain
passes 12 entries, found entries moved to the front of their chain). ``for (k in a)``
walks the string chains in table order. The order is observable, so it is reproduced
here; only the observable behaviour is modelled. Beside the chains, a dict from each key to
its node finds an element without hashing the key or walking its chain (a rule like
``{c[$3] += $2}`` looks an element up twice per record); the chains keep the order.

The class subclasses ``dict`` only so the runtime can tell arrays from scalars with
``isinstance(v, dict)``; the dict storage itself stays empty.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from .value import UNINIT, d_to_int

_NULL, _SPLIT, _INT, _STR = 0, 1, 2, 4
_START_HMASK = 63
_MAX_AVE = 12
_NO_IVAL = -(2**31)


def fnv1(text: str) -> int:
    h = 2166136261
    for byte in text.encode("latin-1", "replace"):
        h = ((h ^ byte) * 16777619) & 0xFFFFFFFF
    return h


class _Node:
    __slots__ = ("sval", "hval", "ival", "value")

    def __init__(self, sval: str | None, hval: int, ival: int, value: Any) -> None:
        self.sval = sval
        self.hval = hval
        self.ival = ival
        self.value = value


def _to_front(chain: list[_Node], node: _Node) -> None:
    """mawk moves an element it finds to the front of its chain."""
    if chain[0] is not node:
        chain.remove(node)
        chain.insert(0, node)


class MawkArray(dict):  # type: ignore[type-arg]
    """An awk array. Keys are raw awk values: integral numbers go the integer way."""

    def __init__(self, number_to_string: Callable[[float], str]) -> None:
        super().__init__()
        self.num_to_str = number_to_string
        self._clear()

    def _clear(self) -> None:
        self.kind = _NULL
        self.size = 0
        self.cells: list[Any] = []
        self.hmask = 0
        self.limit = 0
        self.slists: list[list[_Node]] = []
        self.ilists: list[list[_Node]] = []
        self.by_string: dict[str, _Node] = {}
        self.by_integer: dict[int, _Node] = {}

    # -- keys -------------------------------------------------------------------------
    def _classify(self, key: Any) -> tuple[bool, int, str]:
        """(is_int, ival, sval) the way mawk's array_find dispatches on the cell type."""
        if isinstance(key, float):
            ival = d_to_int(key)
            if float(ival) == key:
                return True, ival, ""
            return False, 0, self.num_to_str(key)
        return False, 0, str(key)

    # -- tables -------------------------------------------------------------------------
    def _make_table(self, kind: int) -> None:
        self.kind = kind
        self.hmask = _START_HMASK
        self.limit = (_START_HMASK + 1) * _MAX_AVE
        self.slists = [[] for _ in range(_START_HMASK + 1)]
        self.ilists = [[] for _ in range(_START_HMASK + 1)]

    def _convert_split(self) -> None:
        cells = self.cells
        self.cells = []
        self.hmask = _START_HMASK
        self.limit = (self.hmask + 1) * _MAX_AVE
        while self.size > self.limit:
            self.hmask = self.hmask * 2 + 1
            self.limit = (self.hmask + 1) * _MAX_AVE
        self.slists = [[] for _ in range(self.hmask + 1)]
        self.ilists = [[] for _ in range(self.hmask + 1)]
        for i, value in enumerate(cells):
            node = self.by_integer[i + 1] = _Node(None, 0, i + 1, value)
            self.ilists[(i + 1) & self.hmask].insert(0, node)
        self.kind = _INT

    def _double(self) -> None:
        old = self.hmask
        new = old * 2 + 1
        self.slists.extend([] for _ in range(old + 1))
        self.ilists.extend([] for _ in range(old + 1))
        for i in range(old + 1):
            stay = [n for n in self.slists[i] if n.hval & new == i]
            move = [n for n in self.slists[i] if n.hval & new != i]
            self.slists[i], self.slists[i + old + 1] = stay, move
            stay = [n for n in self.ilists[i] if n.ival & new == i]
            move = [n for n in self.ilists[i] if n.ival & new != i]
            self.ilists[i], self.ilists[i + old + 1] = stay, move
        self.hmask = new
        self.limit = (new + 1) * _MAX_AVE

    def _add_string_associations(self) -> None:
        if self.kind == _NULL:
            self._make_table(_STR)
            return
        if self.kind == _SPLIT:
            self._convert_split()
        for chain in self.ilists[: self.hmask + 1]:
            for node in chain:
                node.sval = str(node.ival)
                node.hval = fnv1(node.sval)
                self.by_string[node.sval] = node
                self.slists[node.hval & self.hmask].insert(0, node)
        self.kind |= _STR

    def _grow_if_needed(self) -> None:
        self.size += 1
        if self.size > self.limit:
            self._double()

    def _by_sval(self, sval: str, create: bool) -> _Node | None:
        if not self.kind & _STR:
            self._add_string_associations()
        node = self.by_string.get(sval)
        if node is not None:
            _to_front(self.slists[node.hval & self.hmask], node)
            return node
        if not create:
            return None
        h = fnv1(sval)
        node = self.by_string[sval] = _Node(sval, h, _NO_IVAL, UNINIT)
        self._grow_if_needed()
        self.slists[h & self.hmask].insert(0, node)
        return node

    def _by_ival(self, ival: int, create: bool) -> _Node | None:
        known = self.by_integer.get(ival)
        if known is not None:
            _to_front(self.ilists[ival & self.hmask], known)
            return known
        if self.kind & _STR:
            found = self._by_sval(str(ival), create)
            if found is None:
                return None
            node = found
        elif create:
            node = _Node(None, 0, ival, UNINIT)
            self._grow_if_needed()
        else:
            return None
        node.ival = ival
        self.kind |= _INT
        self.ilists[ival & self.hmask].insert(0, node)
        self.by_integer[ival] = node
        return node

    def _find(self, key: Any, create: bool) -> _Node | int | None:
        """The node for ``key``, or for split arrays the cell index."""
        if self.size == 0 and not create:
            return None
        is_int, ival, sval = self._classify(key)
        if is_int:
            if self.kind == _SPLIT:
                if 1 <= ival <= self.size:
                    return ival - 1
                if not create:
                    return None
                self._convert_split()
            elif self.kind == _NULL:
                self._make_table(_INT)
            return self._by_ival(ival, create)
        return self._by_sval(sval, create)

    # -- the awk operations --------------------------------------------------------------
    def get(self, key: Any, default: Any = None) -> Any:
        """A[key] as an rvalue: referencing an element creates it."""
        where = self._find(key, True)
        if isinstance(where, int):
            return self.cells[where]
        assert where is not None
        return where.value

    def peek(self, key: Any) -> Any:
        """A[key] if it exists, else None, without creating it."""
        where = self._find(key, False)
        if where is None:
            return None
        if isinstance(where, int):
            return self.cells[where]
        return where.value

    def __getitem__(self, key: Any) -> Any:
        return self.get(key)

    def __setitem__(self, key: Any, value: Any) -> None:
        where = self._find(key, True)
        if isinstance(where, int):
            self.cells[where] = value
        else:
            assert where is not None
            where.value = value

    def __contains__(self, key: object) -> bool:
        return self._find(key, False) is not None

    def pop(self, key: Any, default: Any = None) -> Any:
        """delete A[key]."""
        if self.size == 0:
            return default
        is_int, ival, sval = self._classify(key)
        if is_int:
            if self.kind == _SPLIT:
                if not 1 <= ival <= self.size:
                    return default
                self._convert_split()
            node = self._by_ival(ival, False)
        else:
            node = self._by_sval(sval, False)
        if node is None:
            return default
        if node.sval is not None:
            self.slists[node.hval & self.hmask].remove(node)
            del self.by_string[node.sval]
        if node.ival != _NO_IVAL:
            chain = self.ilists[node.ival & self.hmask]
            if node in chain:
                chain.remove(node)
            self.by_integer.pop(node.ival, None)
        self.size -= 1
        if self.size == 0:
            self._clear()
        return node.value

    def clear(self) -> None:
        self._clear()

    def load(self, values: list[Any]) -> None:
        """split(): the array becomes the vector A[1..n]."""
        self._clear()
        self.kind = _SPLIT
        self.cells = list(values)
        self.size = len(values)

    def keys(self) -> list[str]:  # type: ignore[override]
        """The for-in loop vector: string keys in mawk's table order."""
        if self.size == 0:
            return []
        if not self.kind & _STR:
            self._add_string_associations()
        return [node.sval for chain in self.slists for node in chain if node.sval is not None]

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys())

    def __len__(self) -> int:
        return self.size

    def __bool__(self) -> bool:
        return True
