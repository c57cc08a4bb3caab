"""A generative differential fuzzer: random scripts from a grammar of the constructs our
interpreter supports, run by GNU bash and by ours; every difference is reduced to a
minimal script.

    PYTHONPATH=wasm/guest:tests/bash python tests/bash/fuzz_differential.py [--seeds 0:500] [--show]

``generate(seed)`` is deterministic (a seed names a script forever). ``reduce`` drops
statements, then words, while the same fields (stdout, status, stderr emptiness, files)
still differ. ``test_fuzz_differential.py`` runs a fixed range of seeds as a marked suite;
constructs left out of the grammar on purpose are listed in ``KNOWN_DIVERGENCES``.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from dataclasses import dataclass

from run_cases import Case, Outcome, compare, run_in_bash, run_in_interpreter

KNOWN_DIVERGENCES = {
    "$RANDOM, $$, $BASHPID, date, time": "differ between any two runs, so no differential verdict exists",
    "printf %()T with a TZ offset": "the guest formats times in UTC only (no zone database)",
    "bytes >= 0x80 under LC_ALL=C": "the sandbox always speaks UTF-8; fixtures are recorded under LC_ALL=C",
    "PATH lookup of the built-in commands": "our commands are found whatever PATH says",
    "error messages folded into stdout (2>&1)": "message wording is not compared (only whether stderr is empty);"
                                                " bash even names a -c function's errors 'environment: line 1'",
}
"""Constructs the grammar never generates, and why."""

_NAMES = ["a", "b", "c", "xs", "n"]
_WORDS = ["x", "y z", "", "a*b", "1", "-n", "10", "foo/bar", "A b C", "  s  ", "3"]
_PARAM_OPS = [":-d", "-d", ":+p", "#?", "##*/", "%?", "%%/*", "/a/_", "//o/0", "^", "^^", ",,", ":1", ":1:2",
              "@Q", "/#f/F"]
_ARITH = ["{n}+1", "{n}*3-1", "({n}%3)", "{n}<<2", "{n}>2?1:0", "{n}**2", "-{n}", "!{n}", "{n}/2", "({n}+1)*({n}-1)"]
_PATTERNS = ["x", "*", "a*", "?", '""', "*/*", "[a-f]*"]
_FILTERS = ["cat", "tr a-z A-Z", "sort", "sort -r", "wc -l", "head -n 2", "tail -n 1", "rev", "uniq", "cut -c1-3",
            "sed 's/o/0/g'", "grep -c .", "tr -d ' '"]


@dataclass
class _Gen:
    rng: random.Random
    depth: int = 0

    def pick(self, items: list[str]) -> str:
        return self.rng.choice(items)

    def literal(self) -> str:
        word = self.pick(_WORDS)
        return "'" + word + "'" if self.rng.random() < 0.5 else '"' + word + '"'

    def word(self) -> str:
        r = self.rng.random()
        name = self.pick(_NAMES)
        if r < 0.3:
            return self.literal()
        if r < 0.5:
            return f'"${name}"'
        if r < 0.65:
            return f'"${{{name}{self.pick(_PARAM_OPS)}}}"'
        if r < 0.75:
            return f"$(( {self.arith()} ))"
        if r < 0.85 and self.depth < 2:
            return f'"$({self.simple()})"'
        if r < 0.92:
            return f"${name}"
        return f'"${{#{name}}}"'

    def arith(self) -> str:
        return self.pick(_ARITH).format(n=self.pick(["n", "1", "7", "${#a}"]))

    def condition(self) -> str:
        r = self.rng.random()
        if r < 0.3:
            return f"[[ {self.word()} == {self.pick(_PATTERNS)} ]]"
        if r < 0.5:
            return f"[ {self.word()} {self.pick(['=', '!='])} {self.literal()} ]"
        if r < 0.7:
            return f"(( {self.arith()} ))"
        if r < 0.85:
            return f"[[ -{self.pick(['z', 'n'])} {self.word()} ]]"
        return self.pick(["true", "false", "! false"])

    def simple(self) -> str:
        r = self.rng.random()
        if r < 0.35:
            return "echo " + " ".join(self.word() for _ in range(self.rng.randint(0, 3)))
        if r < 0.55:
            fmt = self.pick(["'%s\\n'", "'<%s>'", "'%d\\n'", "'%5s|\\n'", "'%-4s|%s\\n'", "'%q\\n'", "'%x\\n'"])
            return f"printf {fmt} " + " ".join(self.word() for _ in range(self.rng.randint(1, 3)))
        if r < 0.75:
            return f"{self.pick(_NAMES)}={self.word()}"
        if r < 0.85:
            return f"n=$(( {self.arith()} ))"
        if r < 0.92:
            return f"xs=({' '.join(self.word() for _ in range(self.rng.randint(0, 3)))})"
        return f'echo "${{#xs[@]}}" "${{xs[{self.pick(["0", "1", "-1", "@"])}]}}"'

    def pipeline(self) -> str:
        stages = [self.simple()]
        for _ in range(self.rng.randint(0, 2)):
            stages.append(self.pick(_FILTERS))
        return " | ".join(stages)

    def statement(self) -> str:
        self.depth += 1
        try:
            r = self.rng.random()
            if self.depth > 2 or r < 0.35:
                return self.pipeline()
            if r < 0.45:
                return f"if {self.condition()}; then {self.statement()}; else {self.statement()}; fi"
            if r < 0.55:
                return f"for {self.pick(_NAMES)} in {' '.join(self.word() for _ in range(3))}; do {self.statement()}; done"
            if r < 0.62:
                i = "ijk"[self.depth - 1]  # one counter per nesting level: every loop ends
                return f"{i}=0; while (( {i} < {self.rng.randint(0, 3)} )); do {self.statement()}; {i}=$(({i}+1)); done"
            if r < 0.7:
                return (f"case {self.word()} in {self.pick(['x', 'a*', '*b', '?'])}) {self.statement()};; "
                        f"*) {self.statement()};; esac")
            if r < 0.78:
                return f"{self.condition()} && {self.statement()} || {self.statement()}"
            if r < 0.85:
                return f"f() {{ {self.statement()}; return {self.rng.randint(0, 3)}; }}; f {self.word()}; echo \"rc=$?\""
            if r < 0.92:
                return f"( {self.statement()}; {self.statement()} )"
            return f"{{ {self.statement()}; }} 2>/dev/null"
        finally:
            self.depth -= 1


def generate(seed: int, statements: int = 6) -> str:
    """The script for ``seed``: a few assignments, then random statements, then a dump."""
    gen = _Gen(random.Random(seed))
    lines = ["a='x y'; b=foo/bar.txt; c=''; n=3; xs=(one 'two three' '')"]
    lines += [gen.statement() for _ in range(statements)]
    lines.append('echo "end $? ${a}|${b}|${c}|${n}|${#xs[@]}"')
    return "\n".join(lines) + "\n"


def _fields(expected: Outcome, actual: Outcome) -> tuple[str, ...]:
    return tuple(sorted(d.split(":")[0] for d in compare(expected, actual)))


def differs(script: str, *, allow_syntax_errors: bool = True) -> tuple[str, ...]:
    """Which outcome fields differ between GNU bash and us (empty: none)."""
    case = Case("fuzz", "fuzz", script)
    expected = run_in_bash(case)
    if not allow_syntax_errors and b"syntax error" in expected.stderr:
        return ()
    return _fields(expected, run_in_interpreter(case))


def reduce(script: str) -> str:
    """A smaller script on which the same fields still differ (statements, then words)."""
    target = differs(script)
    if not target:
        return script
    lines = script.rstrip("\n").split("\n")
    k = 0
    while k < len(lines):
        trial = lines[:k] + lines[k + 1:]
        if trial and differs("\n".join(trial) + "\n", allow_syntax_errors=False) == target:
            lines = trial
        else:
            k += 1
    for idx in range(len(lines)):
        words = lines[idx].split(" ")
        j = 0
        while j < len(words) and len(words) > 1:
            trial_words = words[:j] + words[j + 1:]
            trial = lines[:idx] + [" ".join(trial_words)] + lines[idx + 1:]
            # a reduction must stay a script bash accepts, or it shows a different bug
            if differs("\n".join(trial) + "\n", allow_syntax_errors=False) == target:
                words = trial_words
            else:
                j += 1
        lines[idx] = " ".join(words)
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", default="0:200", help="start:stop range of seeds")
    parser.add_argument("--show", action="store_true", help="print every reduced difference")
    args = parser.parse_args(argv)
    if shutil.which("bash") is None:
        print("GNU bash is not installed", file=sys.stderr)
        return 2
    start, _, stop = args.seeds.partition(":")
    failures = 0
    seeds = range(int(start), int(stop))
    for seed in seeds:
        script = generate(seed)
        fields = differs(script)
        if not fields:
            continue
        failures += 1
        minimal = reduce(script)
        print(f"seed {seed}: {', '.join(fields)} differ")
        if args.show:
            print("  " + minimal.rstrip("\n").replace("\n", "\n  "))
    print(f"{len(seeds) - failures}/{len(seeds)} scripts identical")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
