"""jq conformance: each case runs our jq and compares with jq 1.6's recorded output.

jq is not part of the base machine; the expectations in ``fixtures/cmd_jq_unit.json`` were
recorded from the real jq 1.6 (``apt-get install jq``) by running this file as a script
(``python tests/bash/test_jq.py --record``), which also regenerates ``cases/cmd_jq.test.sh``.
The tests themselves never need jq.
"""

from __future__ import annotations

import io
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from recorded_cases import C_LOCALE, Case, RecordedCases

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "fixtures" / "cmd_jq_unit.json"
CASE_FILE = HERE / "cases" / "cmd_jq.test.sh"


DOC = '{"name":"widget","tags":["a","b","c"],"price":9.5,"stock":{"warehouse":12,"store":0},"active":true,"notes":null}\n'
PEOPLE = ('[{"name":"ann","age":31,"team":"red"},{"name":"bob","age":25,"team":"blue"},'
          '{"name":"cy","age":31,"team":"red"},{"name":"dee","age":19,"team":"green"}]\n')
LINES = '{"id":1,"v":"x"}\n{"id":2,"v":"y"}\n{"id":3,"v":"z"}\n'

CASES: list[Case] = [
    ("identity-pretty", ["jq", "."], DOC, {}),
    ("identity-compact", ["jq", "-c", "."], DOC, {}),
    ("field-access", ["jq", ".name, .stock.warehouse, .missing"], DOC, {}),
    ("optional-field-on-non-object", ["jq", ".[]?.x?"], "[1, {\"x\": 2}, \"s\"]\n", {}),
    ("array-index-and-negative", ["jq", ".tags[0], .tags[-1], .tags[5]"], DOC, {}),
    ("array-slice", ["jq", "-c", ".tags[1:], .tags[:-1], .tags[5:]"], DOC, {}),
    ("string-slice", ["jq", ".name[1:3]"], DOC, {}),
    ("iterate-array", ["jq", ".tags[]"], DOC, {}),
    ("iterate-object-values", ["jq", "-c", ".stock[]"], DOC, {}),
    ("recursive-descent", ["jq", "-c", "[.. | numbers]"], DOC, {}),
    ("pipe-and-comma", ["jq", "-c", ".stock | .warehouse, .store"], DOC, {}),
    ("raw-output", ["jq", "-r", ".tags[]"], DOC, {}),
    ("join-output", ["jq", "-j", ".tags[]"], DOC, {}),
    ("array-construction", ["jq", "-c", "[.tags[] | ascii_upcase]"], DOC, {}),
    ("object-construction", ["jq", "-c", "{name, price, first_tag: .tags[0], (.name): 1}"], DOC, {}),
    ("object-construction-multiple-outputs", ["jq", "-c", "{a: (1,2), b: (3,4)}"], "null\n", {}),
    ("string-interpolation", ["jq", "-r", "\"\\(.name) costs \\(.price) (\\(.tags | length) tags)\""], DOC, {}),
    ("arithmetic", ["jq", "-c", "[.price * 2, .price / 2, .price - 1, .price + 1, 7 % 3, -7 % 3, 5 % -2]"], DOC, {}),
    ("string-arithmetic", ["jq", "-c", "[\"ab\" + \"cd\", \"a,b,c\" / \",\", \"x\" * 3, ([1,2,3,2] - [2])]"], "null\n", {}),
    ("object-addition-and-multiplication", ["jq", "-c", "{a:1,b:{c:1}} + {b:{d:2}}, {a:1,b:{c:1}} * {b:{d:2}}"], "null\n", {}),
    ("null-addition", ["jq", "-c", "null + 1, 1 + null, [null + null]"], "null\n", {}),
    ("comparisons", ["jq", "-c", "[1 < 2, \"a\" < \"b\", [1] < [1,0], {} < [], null < false, false < true, true < 0, 1 == 1.0, \"1\" == 1]"], "null\n", {}),
    ("boolean-logic", ["jq", "-c", "[true and false, true or false, (null | not), (1 | not), (false // \"dflt\"), (.missing // \"alt\")]"], "{}\n", {}),
    ("alternative-operator-with-errors", ["jq", "-c", "[.a.b.c // 5, (error(\"x\") // 6), (empty // 7)]"], "{\"a\":1}\n", {}),
    ("if-elif-else", ["jq", "-r", ".[] | if . > 30 then \"old\" elif . > 20 then \"mid\" else \"young\" end"], "[35, 25, 15]\n", {}),
    ("try-catch", ["jq", "-c", "[.[] | try (if . == 2 then error(\"bad\") else . end) catch \"caught \\(.)\"]"], "[1,2,3]\n", {}),
    ("try-without-catch", ["jq", "-c", "[.[] | try error(\"x\")], [.[] | (tonumber? // \"nan\")]"], "[\"1\",\"a\",\"3\"]\n", {}),
    ("error-message-object", ["jq", "-c", "try error({code: 1}) catch .code"], "null\n", {}),
    ("reduce", ["jq", "reduce .[] as $x (0; . + $x)"], "[1,2,3,4]\n", {}),
    ("foreach", ["jq", "-c", "[foreach .[] as $x (0; . + $x)], [foreach .[] as $x (0; . + $x; [$x, .])]"], "[1,2,3]\n", {}),
    ("variables", ["jq", "-c", ".price as $p | .tags | map({tag: ., price: $p})"], DOC, {}),
    ("destructuring", ["jq", "-c", ". as [$a, {b: $b}] | [$a, $b], (. as [$x] | $x)"], "[1, {\"b\": 2}]\n", {}),
    ("object-destructuring-shorthand", ["jq", "-c", ". as {$name, stock: {$store}} | [$name, $store]"], DOC, {}),
    ("user-function", ["jq", "-c", "def double: . * 2; def addn(n): . + n; def f($a; $b): $a - $b; [.[] | double | addn(1)], f(10; 3)"], "[1,2,3]\n", {}),
    ("recursive-function", ["jq", "def fact: if . <= 1 then 1 else . * (. - 1 | fact) end; fact"], "10\n", {}),
    ("builtins-length-keys-values", ["jq", "-c", "[length, (keys), (keys_unsorted), ([.[]] | length), ([values] | length)]"], "{\"b\":1,\"a\":null,\"c\":\"xy\"}\n", {}),
    ("length-of-kinds", ["jq", "-c", "[.[] | length]"], "[[1,2], \"héllo\", {\"a\":1}, null, -5]\n", {}),
    ("has-and-in", ["jq", "-c", "[has(\"a\"), has(\"z\")], ([\"a\",\"z\"] | map(in({\"a\":1})))"], "{\"a\":1}\n", {}),
    ("map-and-map-values", ["jq", "-c", "map(. * 10), (to_entries | map(.key)), ({a:1,b:2} | map_values(. + 1))"], "[1,2,3]\n", {}),
    ("select", ["jq", "-c", "map(select(.age > 20)) | map(.name)"], PEOPLE, {}),
    ("empty-and-error", ["jq", "-c", "[.[] | if . == 2 then empty else . end]"], "[1,2,3]\n", {}),
    ("add-any-all", ["jq", "-c", "[add, any, all, ([] | add), ([\"a\",\"b\"] | add), (map(. > 1) | any, all)]"], "[1,2,3]\n", {}),
    ("range-forms", ["jq", "-c", "[range(3)], [range(2;5)], [range(0;10;3)], [range(5;0;-2)]"], "null\n", {}),
    ("math-builtins", ["jq", "-c", "[(3.7 | floor), (3.2 | ceil), (2.5 | round), (16 | sqrt), (-3 | fabs), pow(2;10), (100 | log10)]"], "null\n", {}),
    ("tostring-tonumber", ["jq", "-c", "[(1, \"a\", [1], {\"a\":null}) | tostring], [(\"12\", \"1.5\", 3) | tonumber]"], "null\n", {}),
    ("type-builtin", ["jq", "-c", "[.[] | type]"], "[null, true, 1, \"s\", [], {}]\n", {}),
    ("to-from-with-entries", ["jq", "-c", "to_entries, (to_entries | from_entries), with_entries(.value |= tostring), ([{name:\"x\",value:1},{k:\"y\",v:2}] | from_entries)"], "{\"a\":1,\"b\":2}\n", {}),
    ("group-by-sort-by", ["jq", "-c", "group_by(.team) | map({team: .[0].team, n: length}), (sort_by(.age) | map(.name)), (sort_by(.age, .name) | map(.name))"], PEOPLE, {}),
    ("unique-min-max", ["jq", "-c", "(map(.age) | unique), (unique_by(.team) | map(.name)), (min_by(.age) | .name), (max_by(.age) | .name), (map(.age) | min, max)"], PEOPLE, {}),
    ("sort-mixed-types", ["jq", "-c", "sort"], "[3, \"b\", null, [1], true, {\"a\":1}, false, \"a\", 1, []]\n", {}),
    ("reverse-contains-inside", ["jq", "-c", "[reverse, contains([2]), ([2] | inside([1,2,3])), (\"foobar\" | contains(\"bar\")), ({a:{b:1,c:2}} | contains({a:{b:1}}))]"], "[1,2,3]\n", {}),
    ("string-predicates", ["jq", "-c", "[startswith(\"wid\"), endswith(\"get\"), ltrimstr(\"wid\"), rtrimstr(\"get\"), ascii_downcase, ascii_upcase]"], "\"widGet\"\n", {}),
    ("split-join", ["jq", "-c", "split(\", \"), (split(\", \") | join(\"|\")), ([1,null,\"a\",true] | join(\"-\"))"], "\"a, b, c\"\n", {}),
    ("regex-test-match-capture", ["jq", "-c", "test(\"\\\\d+\"), (match(\"(\\\\w+)-(\\\\d+)\") | [.offset, .length, .string, (.captures | map(.string))]), capture(\"(?<word>\\\\w+)-(?<num>\\\\d+)\")"], "\"item-42 x\"\n", {}),
    ("regex-flags-and-scan", ["jq", "-c", "[test(\"ABC\"; \"i\"), [scan(\"[a-z]+\")], [match(\"a\"; \"g\") | .offset]]"], "\"abc def abc\"\n", {}),
    ("regex-sub-gsub", ["jq", "-c", "sub(\"o\"; \"0\"), gsub(\"o\"; \"0\"), gsub(\"(?<v>[aeiou])\"; \"<\\(.v)>\"), [splits(\", *\")]"], "\"foo, boo,zoo\"\n", {}),
    ("first-last-nth-limit", ["jq", "-c", "[first, last, nth(1)], [first(range(10;20))], [limit(3; range(100))], [nth(2; range(10))], [last(range(5))]"], "[5,6,7]\n", {}),
    ("limit-zero-quirk", ["jq", "-c", "[limit(0; 1, 2)]"], "null\n", {}),
    ("flatten", ["jq", "-c", "flatten, flatten(1)"], "[1,[2,[3,[4]]]]\n", {}),
    ("indices-index-rindex", ["jq", "-c", "[indices(\", \"), index(\", \"), rindex(\", \")], ([0,1,2,1,3] | [indices(1), indices([1,2])])"], "\"a, b, c\"\n", {}),
    ("paths-and-leaf-paths", ["jq", "-c", "[paths], [leaf_paths], [paths(type == \"number\")]"], "{\"a\":[1,{\"b\":2}],\"c\":\"x\"}\n", {}),
    ("getpath-setpath-delpaths", ["jq", "-c", "getpath([\"a\",1,\"b\"]), setpath([\"a\",0]; 9), delpaths([[\"a\",1],[\"c\"]]), getpath([\"x\",\"y\"])"], "{\"a\":[1,{\"b\":2}],\"c\":\"x\"}\n", {}),
    ("del", ["jq", "-c", "del(.a), del(.b[0,2]), del(.b[] | select(. == 2))"], "{\"a\":1,\"b\":[1,2,3]}\n", {}),
    ("update-assignment", ["jq", "-c", ".a |= . + 1, .b[] |= . * 2, .c.d |= \"new\""], "{\"a\":1,\"b\":[1,2]}\n", {}),
    ("plain-assignment", ["jq", "-c", ".a = .b, (.x, .y) = 0, .arr[2] = 1"], "{\"a\":1,\"b\":2}\n", {}),
    ("arithmetic-assignment", ["jq", "-c", ".a += 10, .a -= 1, .a *= 3, .a /= 2, .a %= 1, .z //= \"d\", .a //= \"d\""], "{\"a\":4}\n", {}),
    ("update-with-empty-quirk", ["jq", "-c", "(.[] | select(. == 2)) |= empty"], "[1,2,3]\n", {}),
    ("slice-assignment", ["jq", "-c", ".[1:3] = [\"x\"], .[2:] |= map(. * 10)"], "[1,2,3,4]\n", {}),
    ("tojson-fromjson", ["jq", "-c", "tojson, (tojson | fromjson), ([1, \"a\"] | tojson)"], "{\"a\":[1,2.5,\"x\"]}\n", {}),
    ("format-csv-tsv", ["jq", "-r", ".[] | @csv, @tsv"], "[[1,\"a\\\"b\",null,true],[\"x\\ty\",\"back\\\\slash\"]]\n", {}),
    ("format-base64-roundtrip", ["jq", "-r", "@base64, (@base64 | @base64d)"], "\"hello, wörld\"\n", {}),
    ("format-html-uri-sh", ["jq", "-r", "@html, @uri, @sh, @json, @text"], "\"<a href='x'>&</a> ü\"\n", {}),
    ("format-string-interpolation", ["jq", "-r", "@sh \"echo \\(.)\", @uri \"https://x/?q=\\(.[0])\""], "[\"a b\", \"it's\"]\n", {}),
    ("slurp", ["jq", "-c", "-s", ".", "--"], LINES, {}),
    ("slurp-and-map", ["jq", "-s", "map(.id) | add"], LINES, {}),
    ("null-input", ["jq", "-n", "-c", "[1, 2] | map(. + 1)"], "", {}),
    ("raw-input-lines", ["jq", "-R", "-c", "split(\" \")"], "a b\nc d e\n", {}),
    ("raw-input-slurp", ["jq", "-R", "-s", "."], "line1\nline2\n", {}),
    ("multiple-inputs", ["jq", "-c", "{id: .id, up: (.v | ascii_upcase)}"], LINES, {}),
    ("input-and-inputs", ["jq", "-c", "[., input], [inputs]"], LINES + '{"id":4}\n', {}),
    ("null-input-with-inputs", ["jq", "-n", "-c", "[inputs | .id]"], LINES, {}),
    ("arg-and-argjson", ["jq", "-n", "-c", "--arg", "name", "ann", "--argjson", "n", "{\"x\": [1]}", "[$name, $n, $ARGS.named]"], "", {}),
    ("args-positional", ["jq", "-n", "-c", "$ARGS.positional", "--args", "a", "b"], "", {}),
    ("jsonargs-positional", ["jq", "-n", "-c", "$ARGS.positional", "--jsonargs", "1", "{\"a\":2}"], "", {}),
    ("sort-keys", ["jq", "-S", "."], "{\"b\":{\"z\":1,\"y\":2},\"a\":[{\"d\":1,\"c\":2}]}\n", {}),
    ("tab-indent", ["jq", "--tab", "."], "{\"a\":[1,{\"b\":2}]}\n", {}),
    ("indent-option", ["jq", "--indent", "1", "."], "{\"a\":[1,{\"b\":2}]}\n", {}),
    ("indent-zero", ["jq", "--indent", "0", "."], "{\"a\":[1,{\"b\":2}]}\n", {}),
    ("ascii-output", ["jq", "-a", "."], "\"héllo ☃ 𝄞\"\n", {}),
    ("unicode-passthrough", ["jq", "-c", "., length, utf8bytelength"], "\"héllo ☃ 𝄞\"\n", {}),
    ("string-escapes-output", ["jq", "."], "\"tab\\there\\nnl \\u0001 \\u007f \\\"q\\\" \\\\ /\"\n", {}),
    ("number-formatting", ["jq", "-c", "."], "[1.0, 1e3, 1e17, 1.5e300, 0.1, 1e-5, 100000000000000000001, 3.14159265358979, 0.00001234, 123456789012345678, 1e1000, -0, 25e15, 1e16]\n", {}),
    ("number-arithmetic-formatting", ["jq", "-c", "[1/3, 2/3*3, 0.1+0.2, 1e308*10, -(1), 10/4]"], "null\n", {}),
    ("nan-and-infinite", ["jq", "-c", "[nan, infinite, -infinite, (nan | isnan), (infinite | isinfinite), (nan < 1)]"], "null\n", {}),
    ("exit-status-false", ["jq", "-e", ".a"], "{\"a\":false}\n", {}),
    ("exit-status-null", ["jq", "-e", ".missing"], "{}\n", {}),
    ("exit-status-no-output", ["jq", "-e", "empty"], "1\n", {}),
    ("exit-status-true", ["jq", "-e", ".a"], "{\"a\":1}\n", {}),
    ("runtime-error-status-5", ["jq", ".a.b"], "{\"a\":1}\n", {}),
    ("runtime-error-continues-with-next-input", ["jq", "-c", ".a + 1"], "{\"a\":1}\n{\"a\":\"x\"}\n{\"a\":3}\n", {}),
    ("compile-error-status-3", ["jq", ".a |"], "{}\n", {}),
    ("unknown-function-compile-error", ["jq", "nosuchfn"], "{}\n", {}),
    ("invalid-json-input", ["jq", "."], "{\"a\": tru}\n", {}),
    ("iterate-over-number-error", ["jq", ".[]"], "5\n", {}),
    ("file-arguments", ["jq", "-c", ".x", "a.json", "b.json"], "", {"a.json": "{\"x\":1}", "b.json": "{\"x\":2} {\"x\":3}"}),
    ("missing-file", ["jq", ".", "nosuch.json"], "", {}),
    ("from-file", ["jq", "-c", "-f", "prog.jq"], "[1,2,3]\n", {"prog.jq": "map(. * 2)\n| add\n"}),
    ("label-break", ["jq", "-c", "[label $out | .[] | if . > 2 then ., break $out else . end]"], "[1,2,3,4,5]\n", {}),
    ("until-while-repeat", ["jq", "-c", "[.[] | until(. > 100; . * 2)], [1 | while(. < 50; . * 3)], [limit(4; 1 | repeat(. * 2))]"], "[1,3,7]\n", {}),
    ("recurse-forms", ["jq", "-c", "[recurse(if . < 3 then . + 1 else empty end)], [{a:{a:{a:1}}} | recurse(.a?; . != null) | type]"], "0\n", {}),
    ("walk", ["jq", "-c", "walk(if type == \"number\" then . + 1 else . end)"], "{\"a\":[1,{\"b\":2}],\"c\":3}\n", {}),
    ("transpose-and-combinations", ["jq", "-c", "transpose, [[1,2],[3,4]] | [combinations]"], "[[1,2],[3]]\n", {}),
    ("tostream-fromstream", ["jq", "-c", "[tostream], fromstream(tostream)"], "{\"a\":[1,{\"b\":2}]}\n", {}),
    ("splits-and-ascii", ["jq", "-c", "[splits(\"[,;] ?\")], (explode | implode), ([65, 66] | implode)"], "\"a, b;c\"\n", {}),
    ("env-and-ENV", ["jq", "-n", "-r", "env.LC_ALL, $ENV.LC_ALL"], "", {}),
    ("dates", ["jq", "-c", "todate, (todate | fromdate), gmtime, (gmtime | mktime), strftime(\"%A %d %B %Y\")"], "1425599621\n", {}),
    ("getpath-on-missing", ["jq", "-c", "[getpath([\"a\",\"b\"]), (try getpath([\"a\",0]) catch \"err\")]"], "{\"a\":null}\n", {}),
    ("optional-iteration-and-errors", ["jq", "-c", "[.[] | .a?], [.[] | try .a catch \"E\"]"], "[{\"a\":1}, 2, \"s\", null]\n", {}),
    ("object-keys-from-variables", ["jq", "-c", ". as $d | {($d.k): $d.v, \"lit\": 1, \"\\($d.k)2\": 2}"], "{\"k\":\"key\",\"v\":\"val\"}\n", {}),
    ("reduce-to-object", ["jq", "-c", "reduce .[] as $p ({}; .[$p.team] += [$p.name])"], PEOPLE, {}),
    ("complex-pipeline", ["jq", "-r", "map(select(.team == \"red\")) | sort_by(.name) | reverse | .[] | \"\\(.name)\\t\\(.age)\""], PEOPLE, {}),
    ("keys-on-array-and-error", ["jq", "-c", "keys, (try (1 | keys) catch .)"], "[\"a\",\"b\"]\n", {}),
    ("error-null-is-silent", ["jq", "-c", "error(null)"], "1\n", {}),
    ("min-max-empty", ["jq", "-c", "[min, max]"], "[]\n", {}),
    ("any-all-with-generators", ["jq", "-c", "[any(.[]; . > 2), all(.[]; . > 0), any(. > 5), all(. < 5)]"], "[1,2,3]\n", {}),
    ("isempty-and-first", ["jq", "-c", "[isempty(empty), isempty(.[]), first(.[] | select(. > 1))]"], "[1,2,3]\n", {}),
    ("index-with-expression", ["jq", "-c", ".a[.i], .[\"a\"][0], .a[.i:]"], "{\"a\":[10,20,30],\"i\":1}\n", {}),
    ("comments-in-filter", ["jq", "-c", "# leading comment\n.a # trailing\n| . + 1"], "{\"a\":1}\n", {}),
    ("large-array-streaming", ["jq", "-c", "select(. % 1000 == 0)"], "".join(f"{i}\n" for i in range(1, 5001)), {}),
    ("string-multiplication-zero", ["jq", "-c", "[\"x\" * 0, \"ab\" * 2.5]"], "null\n", {}),
    ("division-by-zero-constant-is-compile-error", ["jq", "1 / 0"], "null\n", {}),
    ("division-by-zero-runtime-error", ["jq", ". / 0"], "1\n", {}),
    ("exit-status-last-input-decides", ["jq", "-e", ".a"], "{\"a\":false}\n{\"a\":1}\n", {}),
    ("error-then-success-status", ["jq", ".a + 1"], "{\"a\":\"x\"}\n{\"a\":1}\n", {}),
    ("dollar-loc", ["jq", "-c", "$__loc__"], "null\n", {}),
    ("strptime-formats", ["jq", "-n", "-c", "[(\"05 Mar 2015\" | strptime(\"%d %b %Y\") | mktime), (\"2015-03-05\" | strptime(\"%F\") | todate), (\"Thu, 05 Mar 2015 23:51:47\" | strptime(\"%a, %d %b %Y %H:%M:%S\") | mktime), (\"12/31/99\" | strptime(\"%D\") | mktime), (\"bad\" | try strptime(\"%Y\") catch \"err\")]"], "", {}),
    ("color-output", ["jq", "-C", "."], "{\"a\":[1,\"x\",null,true,{\"b\":false}],\"c\":{},\"d\":[]}\n", {}),
    ("color-output-compact-sorted", ["jq", "-C", "-c", "-S", "."], "{\"b\":[1,{}],\"a\":\"s\"}\n", {}),
    ("monochrome-wins-over-color", ["jq", "-M", "-C", "."], "{\"a\":1}\n", {}),
    ("stream-option", ["jq", "-c", "--stream", "."], "{\"a\":[1,{\"b\":2}],\"c\":3}\n5\n[]\n{}\n[[1]]\n", {}),
    ("stream-roundtrip-with-fromstream", ["jq", "-c", "-n", "--stream", "fromstream(inputs)"], "{\"a\":[1,{\"b\":2}]}\n", {}),
    ("getpath-errors-on-scalars", ["jq", "-n", "-c", "{\"a\":1} | getpath([\"a\",\"b\"])"], "", {}),
    ("delete-first-and-limit-paths", ["jq", "-n", "-c", "[1,2,3] | del(first(.[])), del(limit(2; .[]))"], "", {}),
    ("default-filter-is-identity", ["jq"], "{\"a\":1}\n", {}),
    ("dash-file-is-stdin", ["jq", "-c", ".", "-"], "[1]\n", {}),
    ("ascii-with-raw-output-stays-quoted", ["jq", "-a", "-r", "."], "\"é\"\n", {}),
    ("compact-overrides-tab", ["jq", "--tab", "-c", "."], "{\"a\":[1]}\n", {}),
    ("exit-status-without-input", ["jq", "-e", "."], "", {}),
    ("limit-negative-outputs-all", ["jq", "-n", "-c", "[limit(-1; 1, 2)]"], "", {}),
    ("try-error-null-catches-nothing", ["jq", "-n", "-c", "[try error(null) catch \"caught\"]"], "", {}),
    ("numbers-split-across-reads", ["jq", "-c", "."], "1.000 1.5e2 -0.0 0e10 12345.678e-2\n", {}),
    ("nan-literal-input", ["jq", "-c", "."], "NaN\n", {}),
    ("object-value-must-be-a-term", ["jq", "-n", "{a: 1 + 2}"], "", {}),
    ("object-value-pipes-and-negation", ["jq", "-n", "-c", "{a: 1 | . + 1, b: -2, c: (1 + 2)}"], "", {}),
    ("program-starting-with-minus", ["jq", "-n", "-1 - -2"], "", {}),
    ("remainder-by-zero-is-runtime-error", ["jq", "-n", "5 % 0"], "", {}),
    ("halt-error-forms", ["jq", "-n", "\"bye\\n\" | halt_error"], "", {}),
    ("halt-stops-output", ["jq", "-n", "1, halt, 2"], "", {}),
    ("input-filename", ["jq", "input_filename", "a.json"], "", {"a.json": "1"}),
    ("slurpfile-and-rawfile", ["jq", "-n", "-c", "--slurpfile", "f", "a.json", "--rawfile", "r", "b.txt", "[$f, $r]"], "", {"a.json": "1 [2]", "b.txt": "raw\ntext"}),
    ("duplicate-keys-last-wins", ["jq", "-c", "."], "{\"a\":1,\"b\":2,\"a\":3}\n", {}),
    ("big-integers-lose-precision-like-jq", ["jq", "-c", "."], "[100000000000000000000000, 123456789012345678901234567890, 0.12345678901234567890]\n", {}),
    ("error-messages-in-catch", ["jq", "-n", "-c", "[try ([1] | .a) catch ., try ({} | .[0]) catch ., try (1 | .[]) catch ., try ({a:\"very long string value\"} + 1) catch .]"], "", {}),
    ("sort-order-of-kinds", ["jq", "-n", "-c", "[{}, [], \"\", 0, null, false, true, {\"a\":1}, [0]] | sort"], "", {}),
    ("unclosed-brackets-are-a-compile-error", ["jq", "[[[["], "1\n", {}),
    ("unclosed-parens-and-ifs-are-a-compile-error", ["jq", "((((if if"], "1\n", {}),
    ("nested-string-interpolation", ["jq", "-n", "\"\\(\"\\(\"\\(1)\")\")\""], "", {}),
    ("invalid-surrogate-pair-escape-is-a-compile-error", ["jq", "-n", "\"\\ud800\\u12\""], "", {}),
    ("input-nesting-to-jq-limit", ["jq", "-c", "length"], "[" * 256 + "]" * 256 + "\n", {}),
    ("input-nesting-past-jq-limit", ["jq", "-c", "length"], "1\n" + "[" * 257 + "]" * 257 + "\n", {}),
    ("input-object-keys-count-toward-the-limit", ["jq", "-c", "length"],
     "{\"a\":" * 128 + "1" + "}" * 128 + "\n" + "{\"a\":" * 129 + "1" + "}" * 129 + "\n", {}),
    ("fromjson-nesting-past-jq-limit", ["jq", "-n", "-c", "(\"[\" * 256) + (\"]\" * 256) | fromjson | length, (\"[\" * 257 | try fromjson catch \"too deep\")"], "", {}),
]

# -- harness -------------------------------------------------------------------------

CASES_OF = RecordedCases("jq", FIXTURE, CASE_FILE, '# cmd_jq: jq 1.6 filters, builtins, assignment, formats, options and exit statuses',
                         encoding="utf-8", env=C_LOCALE)


def _case_script(argv: list[str], stdin: str, files: dict[str, str]) -> str:
    lines = [f"printf '%s' {shlex.quote(text)} > {shlex.quote(name)}" for name, text in files.items()]
    command = " ".join(shlex.quote(a) for a in argv)
    if stdin and not stdin.isascii() and stdin.endswith("\n") and "\\" not in stdin:
        # echo, not printf: keeps non-ASCII input independent of printf's byte handling.
        lines.append(f"echo {shlex.quote(stdin[:-1])} | {command}")
    elif stdin:
        lines.append(f"printf '%s' {shlex.quote(stdin)} | {command}")
    else:
        lines.append(f"{command} < /dev/null")
    return "\n".join(lines)


def record() -> None:
    CASES_OF.record(CASES, _case_script)


EXPECTED = CASES_OF.expected()


pytestmark = pytest.mark.usefixtures("guest_recursion_limit")


@pytest.mark.parametrize("name,argv,stdin,files", CASES, ids=[c[0] for c in CASES])
def test_jq_matches_jq_1_6(name: str, argv: list[str], stdin: str, files: dict[str, str]) -> None:
    want = EXPECTED[name]
    got = CASES_OF.run_ours(argv, stdin, files)
    assert (got["stdout"], got["status"], got["stderr_empty"], got["files"]) == (
        want["stdout"], want["status"], want["stderr_empty"], want["files"]), got["stderr"]


def test_jq_streams_values_from_endless_input() -> None:
    from bash.commands import COMMANDS
    from bash.commands.base import CommandContext

    def endless() -> Any:
        n = 0
        while True:
            n += 1
            yield f'{{"n": {n}}}\n'.encode()

    ctx = CommandContext(stdin=endless(), stderr=io.BytesIO(), cwd="/", env={}, root="/nonexistent")
    gen = COMMANDS["jq"](ctx, ["jq", "-c", ".n"])
    assert [next(gen) for _ in range(3)] == [b"1\n", b"2\n", b"3\n"]
    gen.close()


def test_jq_runtime_error_message_names_input() -> None:
    got = CASES_OF.run_ours(["jq", ".a.b"], '{"a":1}\n', {})
    assert got["stderr"] == 'jq: error (at <stdin>:1): Cannot index number with string "b"\n'
    assert got["status"] == 5


def test_a_programs_definitions_do_not_outlive_its_run() -> None:
    """The prelude's environment is made once and shared by every run: what one program
    defines, binds or labels stays below it."""
    redefined = CASES_OF.run_ours(
        ["jq", "-c", "def map(f): 7; def length: 9; . as $x | label $out | [map(.+1), length, $x]"], "[1,2]", {})
    assert redefined["stdout"] == "[7,9,[1,2]]\n", redefined
    after = CASES_OF.run_ours(["jq", "-c", "[map(.+1), length, $__loc__.line]"], "[1,2]", {})
    assert after["stdout"] == "[[2,3],2,1]\n", after
    unbound = CASES_OF.run_ours(["jq", "$x"], "1", {})
    assert unbound["status"] == 3 and "$x is not defined" in unbound["stderr"], unbound


def test_jq_compile_error_is_status_3_with_summary() -> None:
    got = CASES_OF.run_ours(["jq", ".a |"], "{}", {})
    assert got["status"] == 3
    assert got["stderr"].endswith("jq: 1 compile error\n")



def _too_deep(source: str) -> str:
    return f"jq: error: filter nesting too deep at <top-level>, line 1:\n{source}\njq: 1 compile error\n"


def test_jq_runs_64_nested_groups_and_refuses_65() -> None:
    # The parser's bound (parse.MAX_DEPTH) is reached long before the guest's stack would
    # overflow; past it the filter is a compile error, exit status 3.
    deepest = "[" * 64 + "1" + "]" * 64
    got = CASES_OF.run_ours(["jq", "-c", deepest], "null\n", {})
    assert (got["stdout"], got["status"], got["stderr"]) == (deepest + "\n", 0, "")
    got = CASES_OF.run_ours(["jq", "-c", "[" + deepest + "]"], "null\n", {})
    assert (got["stdout"], got["status"], got["stderr"]) == ("", 3, _too_deep("[" + deepest + "]"))


def test_jq_chains_take_512_links() -> None:
    # A pipeline (or ``as``, ``def``, ``//``...) nests one cheap level a link.
    pipeline = "1" + " | ." * 512
    got = CASES_OF.run_ours(["jq", pipeline], "null\n", {})
    assert (got["stdout"], got["status"]) == ("1\n", 0)
    got = CASES_OF.run_ours(["jq", pipeline + " | ."], "null\n", {})
    assert (got["stdout"], got["status"], got["stderr"]) == ("", 3, _too_deep(pipeline + " | ."))


@pytest.mark.parametrize("opener", ["[", "(", "if ", "{a:", "[1,", "1 + (", "try (", ". as $x | [",
                                    "reduce (", "f("])
def test_jq_parses_unclosed_groups_in_linear_time(opener: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every term was tried as a binding's source and parsed again when it was not one, so
    # each unclosed group doubled the work. Count the terms parsed: linear in the groups.
    from bash.commands.jq import parse

    calls = 0
    primary = parse.Parser.primary

    def counted(self: parse.Parser) -> Any:
        nonlocal calls
        calls += 1
        if calls > 10_000:
            raise AssertionError("the parser backtracks")
        return primary(self)

    monkeypatch.setattr(parse.Parser, "primary", counted)
    for groups in (10, 20, 30):
        calls = 0
        got = CASES_OF.run_ours(["jq", opener * groups], "1\n", {})
        assert got["status"] == 3 and "syntax error, unexpected $end" in got["stderr"]
        assert calls <= 2 * groups + 1, (groups, calls)
    got = CASES_OF.run_ours(["jq", opener * 2000], "1\n", {})
    assert got["status"] == 3 and "filter nesting too deep" in got["stderr"]


def test_jq_lexes_nested_interpolations_in_linear_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each interpolation's text was lexed once to find where it ends, then again to parse
    # it, which doubled the work with each level.
    from bash.commands.jq import parse

    calls = 0
    lex = parse._lex_string

    def counted(*args: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls > 10_000:
            raise AssertionError("the lexer repeats itself")
        return lex(*args)

    monkeypatch.setattr(parse, "_lex_string", counted)
    for levels in (15, 30, 60):
        calls = 0
        got = CASES_OF.run_ours(["jq", '"\\(' * levels + "1" + ')"' * levels], "null\n", {})
        assert (got["stdout"], got["status"]) == ('"1"\n', 0)
        assert calls <= 4 * levels, (levels, calls)


def test_jq_string_interpolations_share_the_bound() -> None:
    def nested(outer: int, inner: int) -> str:
        return "[" * outer + '"\\(' * inner + "1" + ')"' * inner + "]" * outer

    got = CASES_OF.run_ours(["jq", "-c", nested(0, 64)], "null\n", {})
    assert (got["stdout"], got["status"]) == ('"1"\n', 0)
    got = CASES_OF.run_ours(["jq", "-c", nested(32, 32)], "null\n", {})
    assert (got["stdout"], got["status"]) == ("[" * 32 + '"1"' + "]" * 32 + "\n", 0)
    for outer, inner in ((0, 65), (33, 32), (32, 33)):
        got = CASES_OF.run_ours(["jq", "-c", nested(outer, inner)], "null\n", {})
        assert got["status"] == 3 and "filter nesting too deep" in got["stderr"]


def test_jq_input_past_jqs_depth_limit_never_reaches_the_scanner(monkeypatch: pytest.MonkeyPatch) -> None:
    # Python's JSON scanner recurses in C, a level per bracket; in the guest it overflowed
    # the stack at about 1,100. jq 1.6 stops at 256, so the scanner never sees more.
    from bash.commands.jq import json as jq_json

    deepest = 0
    decoder = jq_json._DECODER

    class Spy:
        def raw_decode(self, text: str, pos: int) -> Any:
            nonlocal deepest
            deepest = max(deepest, text.count("[", pos))
            return decoder.raw_decode(text, pos)

    monkeypatch.setattr(jq_json, "_DECODER", Spy())
    for text in ("[" * 100_000, "[" * 100_000 + "]" * 100_000, "[1, " * 100_000):
        got = CASES_OF.run_ours(["jq", "-c", "."], text, {})
        assert got["status"] == 4
        assert got["stderr"].startswith("parse error: Exceeds depth limit for parsing")
    assert deepest <= 257
    # Brackets in a string (here one never closed) are no nesting.
    got = CASES_OF.run_ours(["jq", "-c", "."], '["' + "[" * 100_000, {})
    assert got["status"] == 4 and got["stderr"].startswith("parse error: Unterminated string")


if __name__ == "__main__" and "--record" in sys.argv:
    record()
