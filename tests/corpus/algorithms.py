"""Small algorithms agents write on the way to an answer."""

from __future__ import annotations

from corpus import case

CASES = [
    case("binary_search_insert_points", """
import bisect
scores = [10, 20, 20, 30, 50]
[bisect.bisect_left(scores, 20), bisect.bisect_right(scores, 20), bisect.bisect(scores, 35)]
""", [1, 3, 4]),
    case("grade_buckets_bisect", """
import bisect
def grade(score, breakpoints=(60, 70, 80, 90), grades="FDCBA"):
    return grades[bisect.bisect(breakpoints, score)]
[grade(s) for s in (33, 99, 77, 70, 89, 90, 100)]
""", ["F", "A", "C", "C", "B", "A", "A"]),
    case("heap_top_k", """
import heapq
sales = {"a": 40, "b": 95, "c": 12, "d": 60, "e": 95}
heapq.nlargest(3, sales, key=lambda k: (sales[k], k))
""", ["e", "b", "d"]),
    case("merge_sorted_streams", """
import heapq
list(heapq.merge([1, 4, 9], [2, 3, 10], [5]))
""", [1, 2, 3, 4, 5, 9, 10]),
    case("dijkstra_by_hand", """
import heapq
graph = {"a": {"b": 4, "c": 1}, "c": {"b": 2, "d": 7}, "b": {"d": 1}, "d": {}}
def shortest(start):
    dist, todo = {start: 0}, [(0, start)]
    while todo:
        d, node = heapq.heappop(todo)
        if d > dist[node]:
            continue
        for nxt, w in graph[node].items():
            if d + w < dist.get(nxt, float("inf")):
                dist[nxt] = d + w
                heapq.heappush(todo, (d + w, nxt))
    return dict(sorted(dist.items()))
shortest("a")
""", {"a": 0, "b": 3, "c": 1, "d": 4}),
    case("topological_order", """
from graphlib import TopologicalSorter
deps = {"deploy": {"test", "build"}, "test": {"build"}, "build": {"fetch"}}
list(TopologicalSorter(deps).static_order())
""", ["fetch", "build", "test", "deploy"]),
    case("lru_cache_fibonacci", """
from functools import lru_cache
@lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
[fib(90), fib.cache_info().hits]
""", [2880067194370816120, 88]),
    case("knapsack_dp", """
def knapsack(items, capacity):
    best = [0] * (capacity + 1)
    for weight, value in items:
        for c in range(capacity, weight - 1, -1):
            best[c] = max(best[c], best[c - weight] + value)
    return best[capacity]
knapsack([(1, 1), (3, 4), (4, 5), (5, 7)], 7)
""", 9),
    case("levenshtein", """
def lev(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]
[lev("kitten", "sitting"), lev("", "abc"), lev("flaw", "lawn")]
""", [3, 3, 2]),
    case("primes_sieve", """
def primes(n):
    sieve = bytearray([1]) * (n + 1)
    sieve[0:2] = b"\\x00\\x00"
    for i in range(2, int(n ** 0.5) + 1):
        if sieve[i]:
            sieve[i * i::i] = bytearray(len(sieve[i * i::i]))
    return [i for i, p in enumerate(sieve) if p]
[len(primes(10_000)), primes(30)]
""", [1229, [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]]),
    case("permutations_combinations", """
from itertools import permutations, combinations, product
[len(list(permutations("abcd", 2))), ["".join(c) for c in combinations("abc", 2)], len(list(product([0, 1], repeat=4)))]
""", [12, ["ab", "ac", "bc"], 16]),
    case("sliding_window_max", """
from collections import deque
def window_max(xs, k):
    q, out = deque(), []
    for i, x in enumerate(xs):
        while q and xs[q[-1]] <= x:
            q.pop()
        q.append(i)
        if q[0] <= i - k:
            q.popleft()
        if i >= k - 1:
            out.append(xs[q[0]])
    return out
window_max([1, 3, -1, -3, 5, 3, 6, 7], 3)
""", [3, 3, 5, 5, 6, 7]),
    case("interval_merge", """
def merge(intervals):
    out = []
    for start, end in sorted(intervals):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return out
merge([(1, 3), (8, 10), (2, 6), (15, 18), (17, 20)])
""", [[1, 6], [8, 10], [15, 20]]),
    case("matrix_multiply_transpose", """
a = [[1, 2], [3, 4]]
b = [[5, 6], [7, 8]]
product = [[sum(x * y for x, y in zip(row, col)) for col in zip(*b)] for row in a]
[product, [list(r) for r in zip(*a)]]
""", [[[19, 22], [43, 50]], [[1, 3], [2, 4]]]),
    case("run_length_encoding", """
from itertools import groupby
def rle(s):
    return "".join(f"{len(list(g))}{ch}" for ch, g in groupby(s))
[rle("aaabccdddd"), rle("")]
""", ["3a1b2c4d", ""]),
    case("balanced_brackets", """
def balanced(s):
    pairs, stack = {")": "(", "]": "[", "}": "{"}, []
    for ch in s:
        if ch in "([{":
            stack.append(ch)
        elif ch in pairs and (not stack or stack.pop() != pairs[ch]):
            return False
    return not stack
[balanced("{[()()]}"), balanced("([)]"), balanced("((")]
""", [True, False, False]),
    case("more_itertools_helpers", """
import more_itertools as mi
[list(mi.windowed([1, 2, 3, 4], 2)), list(mi.flatten([[1], [2, 3]])), mi.first([], default="none"),
 [list(x) for x in mi.distribute(2, range(5))]]
""", [[[1, 2], [2, 3], [3, 4]], [1, 2, 3], "none", [[0, 2, 4], [1, 3]]]),
    case("toolz_pipeline", """
from toolz import pipe, groupby, valmap, curried
words = ["apple", "avocado", "banana", "blueberry", "cherry"]
pipe(words, curried.groupby(lambda w: w[0]), curried.valmap(len))
""", {"a": 2, "b": 2, "c": 1}),
    case("reservoir_sampling_seeded", """
import random
rng = random.Random(42)
sample = rng.sample(range(100), 5)
[len(sample), len(set(sample)), all(0 <= x < 100 for x in sample)]
""", [5, 5, True]),
    case("bit_tricks", """
[bin(42), (42).bit_count(), (42).bit_length(), 42 & -42, int("ff", 16), f"{255:08b}"]
""", ["0b101010", 3, 6, 2, 255, "11111111"]),
    case("roman_numerals", """
def to_roman(n):
    table = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
             (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = ""
    for value, letters in table:
        while n >= value:
            out += letters
            n -= value
    return out
[to_roman(1994), to_roman(2024), to_roman(4)]
""", ["MCMXCIV", "MMXXIV", "IV"]),
    case("big_integers_and_math", """
import math
[math.comb(52, 5), math.factorial(25), math.gcd(462, 1071), math.lcm(4, 6, 10), math.isqrt(10**20 + 1)]
""", [2598960, 15511210043330985984000000, 21, 60, 10000000000]),
]
