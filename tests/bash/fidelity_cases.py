"""Write the ``cases/fid_*.test.sh`` files: the fidelity corpus of issue 15.

    PYTHONPATH=wasm/guest:tests/bash python tests/bash/fidelity_cases.py
    PYTHONPATH=wasm/guest:tests/bash python tests/bash/record.py fid_printf ...

The cases probe the areas our first corpus never asked about (``declare -p``, ``printf``
edge formats, malformed ``[[ ]]``, ``(( ))`` over associative arrays, errexit corners,
parameter expansion operators over awkward values, command lookup, ``read``/``for``
errors). Most are generated as a matrix (operator x operand) from the bash manual's lists,
the rest are written out by hand; the expected outcomes always come from running GNU bash
(``record.py``). Regenerating keeps the "Known divergences" lines of cases that still exist.
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

from fidelity_manual import MANUAL

CASES_DIR = Path(__file__).resolve().parent / "cases"

HEADERS = {
    "fid_printf": "printf formats, flags, precision and integer edge values",
    "fid_declare": "declare -p / typeset: attributes, arrays, readonly, round trips",
    "fid_cond": "[[ ]] and test: operators over awkward operands, malformed expressions",
    "fid_arith": "(( )) and $(( )): operators, bases, assoc arrays, errors",
    "fid_errexit": "set -e in functions, subshells, loops, conditions and redirections",
    "fid_expand": "parameter expansion operators over awkward values",
    "fid_params": "$@ / $* with IFS and empty arguments, positional edge cases",
    "fid_lookup": "command lookup, status codes, read/for errors, |&",
    "fid_split": "word splitting with custom IFS, read with IFS",
    "cmd_data": "sqlite3 (the SQLite 3.40 shell) and yq (kislyuk's, over jq 1.6), recorded from the real tools",
    "fid_date": "date and printf's %(...)T over every year a struct tm holds: past 9999, before year 1, out of range",
    "fid_jobs": "background jobs: &, $!, wait (pid, %n, -n), jobs, kill; order set by sleeps",
}


def _name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")[:40] or "x"


def printf_cases() -> list[tuple[str, str]]:
    formats = ["%s", "%5s", "%-5s|", "%06s", "%.2s", "%6.0s", "%.s", "%-6.2s|", "%d", "%5d", "%-5d|",
               "%05d", "%+d", "% d", "%.3d", "%x", "%#x", "%X", "%#X", "%o", "%#o", "%u", "%i",
               "%c", "%b", "%q", "%e", "%.2e", "%f", "%.1f", "%10.3f", "%g", "%G", "%5.1g", "%#g",
               "%'d", "%*d", "%-*s|", "%.*s"]
    values = ["0", "1", "-1", "42", "255", "abc", "", "3.5", "0x1f", "010", "9223372036854775807",
              "9223372036854775808", "-9223372036854775809", "18446744073709551615", "'A", "\"b",
              "1e3", " 12", "12abc", "a b"]
    cases = []
    for k, fmt in enumerate(formats):
        for j, val in enumerate(values):
            script = f"printf {shlex.quote(fmt + '|' + chr(10))} {shlex.quote(val)}; echo \"s=$?\""
            if "*" in fmt:
                script = f"printf {shlex.quote(fmt + '|' + chr(10))} 4 {shlex.quote(val)}; echo \"s=$?\""
            cases.append((f"f{k:02d}-v{j:02d}-{_name(fmt)}-{_name(val)}", script))
    return cases


def expand_cases() -> list[tuple[str, str]]:
    ops = ["${x:-d}", "${x-d}", "${x:+a}", "${x+a}", "${#x}", "${x#*/}", "${x##*/}", "${x%/*}",
           "${x%%/*}", "${x/a/b}", "${x//a/b}", "${x/#a/b}", "${x/%a/b}", "${x//\\//-}", "${x//[ab]/X}",
           "${x/a*/Z}", "${x//?/.}", "${x^}", "${x^^}", "${x,,}", "${x~~}", "${x:1}", "${x:1:2}",
           "${x: -2}", "${x:0:-1}", "${x@Q}", "${x@U}", "${x@L}", "${x@u}", "${x@A}", "${x@a}",
           "${x@E}", "${x//\"a\"/q}", "${x/\\~/T}", "${x:=set}", "${x//}", "${x/#/P}", "${x/%/S}",
           "${x#}", "${x%\"${x#?}\"}"]
    values = [None, "", "abc", "a/b/c", "Hello World", "aaa", "~/x", "a\\nb", "/", "x*y"]
    cases = []
    for k, op in enumerate(ops):
        for j, val in enumerate(values):
            setup = "unset x" if val is None else f"x={shlex.quote(val)}"
            script = f"{setup}; printf '<%s>\\n' \"{op}\"; echo \"s=$?\""
            cases.append((f"e{k:02d}-v{j}-{_name(op)}", script))
    return cases


def cond_cases() -> list[tuple[str, str]]:
    binary = ["==", "!=", "=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "=~"]
    pairs = [("abc", "abc"), ("a", "b"), ("10", "9"), ("", ""), ("-z", "-n"), ("1", " 1"),
             ("a*", "abc"), ("abc", "a*"), ("0x10", "16"), ("(", ")")]
    cases = []
    for k, op in enumerate(binary):
        for j, (left, right) in enumerate(pairs):
            script = (f"l={shlex.quote(left)} r={shlex.quote(right)}; [[ $l {op} $r ]]; echo \"dbl=$?\"; "
                      f"[[ $l {op} \"$r\" ]]; echo \"q=$?\"")
            if op != "=~":
                script += f"; test \"$l\" {shlex.quote(op)} \"$r\"; echo \"test=$?\""
            cases.append((f"b{k:02d}-p{j}-{_name(op)}", script))
    unary = ["-z", "-n", "-e", "-f", "-d", "-s", "-r", "-w", "-x", "-L", "-v", "-o"]
    operands = ["", "f", "d", "nope", "x", "errexit", "-z"]
    for k, op in enumerate(unary):
        for j, val in enumerate(operands):
            script = (f"touch f; mkdir d; x=1; set -e; v={shlex.quote(val)}; [[ {op} $v ]]; echo \"dbl=$?\"; "
                      f"[ {op} \"$v\" ]; echo \"test=$?\"")
            cases.append((f"u{k:02d}-o{j}-{_name(op)}", script))
    return cases


def arith_cases() -> list[tuple[str, str]]:
    exprs = ["1+2*3", "(1+2)*3", "7/2", "-7/2", "7%3", "-7%3", "2**10", "2**63", "2**64", "1<<63",
             "1<<64", "-1>>1", "5&3", "5|3", "5^3", "~5", "!5", "!0", "1&&0", "1||0", "3>2", "3<=2",
             "1?2:3", "0?2:3", "x=5, x*2", "x++ + ++x", "010", "0x1F", "2#101", "36#z", "64#@",
             "9223372036854775807+1", "-9223372036854775808/-1", "1/0", "5%0", "08", "1 +", "a b",
             "'1'", "\"1\"+1", "y", "y+1", "z=z+1", "A[k]", "A[k]+1", "A[\"k\"]", "B[1]+B[2]",
             "x=2,x<<=3", "x=7,x%=4", "x=1,x^=3", "2**-1", "3>=3 == 1", "--x", "- -1", "+-+1",
             "1e3", "0x", "10#08", "1#1", "65#1"]
    cases = []
    for k, e in enumerate(exprs):
        setup = "declare -A A=([k]=7 [\"q\"]=x); B=(0 4 5); x=3; y=abc"
        cases.append((f"a{k:02d}-{_name(e)}",
                      f"{setup}; echo \"r=$(( {e} ))\"; echo \"s=$?\"; (( {e} )); echo \"c=$?\""))
    return cases


def split_cases() -> list[tuple[str, str]]:
    ifs_values = [None, "", " ", ":", ": ", " :", "\\n", "ab"]
    inputs = ["a b  c", " lead trail ", "a:b::c", "a: b :c:", "::", "x", "", "a\tb"]
    cases = []
    for k, ifs in enumerate(ifs_values):
        set_ifs = "unset IFS" if ifs is None else f"IFS=$'{ifs}'"
        for j, text in enumerate(inputs):
            script = (f"{set_ifs}; v=$'{text}'; set -- $v; echo \"n=$#\"; for a; do printf '[%s]' \"$a\"; done; echo; "
                      f"read -r p q r <<< \"$v\"; printf '(%s)(%s)(%s)\\n' \"$p\" \"$q\" \"$r\"; "
                      f"read -ra arr <<< \"$v\"; echo \"${{#arr[@]}}:${{arr[*]}}\"; echo \"$*\"")
            cases.append((f"i{k}-t{j}-{_name(str(ifs))}", script))
    return cases


def params_cases() -> list[tuple[str, str]]:
    arg_sets = ["", "''", "'' ''", "a", "a ''", "'a b' c", "'' a ''"]
    forms = ["${@-x}", "${@:-x}", "${*-x}", "${*:-x}", "${@+x}", "${*+x}", "${@:+x}", "$@", "$*",
             "${@:2}", "${*:1:1}", "${#@}", "${@/a/Z}", "${@^}"]
    cases = []
    for k, form in enumerate(forms):
        for j, args in enumerate(arg_sets):
            for quoted in (False, True):
                word = f'"{form}"' if quoted else form
                ifs = "IFS=; " if j % 2 and not quoted else ""
                script = f"set -- {args}; {ifs}printf '<%s>' {word}; echo \" n=$#\""
                cases.append((f"p{k:02d}-a{j}-{'q' if quoted else 'u'}-{_name(form)}", script))
    return cases


GENERATED = {
    "fid_printf": printf_cases,
    "fid_expand": expand_cases,
    "fid_cond": cond_cases,
    "fid_arith": arith_cases,
    "fid_split": split_cases,
    "fid_params": params_cases,
}


def _existing_divergences(path: Path) -> list[str]:
    if not path.exists():
        return []
    lines = []
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("### "):
            break
        if re.match(r"#\s+[A-Za-z0-9_.-]+:\s*\S", line) and not line.startswith("# Known"):
            lines.append(line)
    return lines


def write_area(area: str, cases: list[tuple[str, str]]) -> None:
    path = CASES_DIR / f"{area}.test.sh"
    names = {name for name, _ in cases}
    kept = [line for line in _existing_divergences(path) if line.split(":")[0][1:].strip() in names]
    header = [f"# {area}: {HEADERS[area]}", "# Known divergences:" if kept else "# Known divergences: none", *kept]
    body = []
    seen: set[str] = set()
    for name, script in cases:
        if name in seen:
            raise ValueError(f"{area}: duplicate case {name}")
        seen.add(name)
        body += [f"### {name}", script]
    path.write_text("\n".join(header + body) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    areas: dict[str, list[tuple[str, str]]] = {area: make() for area, make in GENERATED.items()}
    for area, cases in MANUAL.items():
        areas.setdefault(area, []).extend(cases)
    for area, cases in areas.items():
        if argv and area not in argv:
            continue
        write_area(area, cases)
        print(f"{area}: {len(cases)} cases")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
