"""The builtins jq defines in jq itself (``PRELUDE``), following jq 1.6's definitions where
their behaviour is observable (``limit``, ``_modify`` via ``|=``, ``tostream`` ...)."""

from __future__ import annotations

from typing import Any

from ..evaluate import Env, Function
from ..parse import Parser


PRELUDE = r"""
def values: select(. != null);
def nulls: select(. == null);
def booleans: select(type == "boolean");
def numbers: select(type == "number");
def strings: select(type == "string");
def arrays: select(type == "array");
def objects: select(type == "object");
def iterables: select(type|. == "array" or . == "object");
def scalars: select(type|. != "array" and . != "object");
def recurse(f): def r: ., (f | r); r;
def recurse(f; cond): def r: ., (f | select(cond) | r); r;
def recurse: recurse(.[]?);
def recurse_down: recurse;
def map(f): [.[] | f];
def map_values(f): .[] |= f;
def to_array: if type == "array" then . else [.] end;
def toarray: if type == "array" then . else [.] end;
def in(xs): . as $x | xs | has($x);
def inside(xs): . as $x | xs | contains($x);
def with_entries(f): to_entries | map(f) | from_entries;
def del(f): delpaths([path(f)]);
def paths: path(..) | select(length > 0);
def paths(node_filter): . as $dot | paths | select(. as $p | $dot | getpath($p) | node_filter);
def leaf_paths: paths(scalars);
def any: reduce .[] as $x (false; . or $x);
def all: reduce .[] as $x (true; . and $x);
def any(f): reduce (.[] | f) as $x (false; . or $x);
def all(f): reduce (.[] | f) as $x (true; . and $x);
def any(g; cond): isempty(first(g | cond | select(.))) | not;
def all(g; cond): isempty(first(g | cond | select(. | not)));
def flatten: _flatten(-1);
def flatten($x): if $x < 0 then error("flatten depth must not be negative") else _flatten($x) end;
def _flatten($x): reduce .[] as $i ([]; if $i | type == "array" and $x != 0 then . + ($i | _flatten($x - 1)) else . + [$i] end);
def last(f): reduce f as $x (null; $x);
def nth($n): .[$n];
def nth($n; f): if $n < 0 then error("Out of bounds negative array index") else last(limit($n + 1; f)) end;
def first: .[0];
def last: .[-1];
def until(cond; update): def _until: if cond then . else (update | _until) end; _until;
def while(cond; update): def _while: if cond then ., (update | _while) else empty end; _while;
def repeat(f): . as $in | def _again: ($in | f), _again; _again;
def combinations: if length == 0 then [] else .[0][] as $x | (.[1:] | combinations) as $w | [$x] + $w end;
def combinations(n): . as $dot | [range(n)] | map($dot) | combinations;
def walk(f): . as $in | if type == "object" then reduce keys_unsorted[] as $key ({}; . + { ($key): ($in[$key] | walk(f)) }) | f elif type == "array" then map(walk(f)) | f else f end;
def transpose: if . == [] then [] else . as $in | (map(length) | max) as $max | [range(0; $max) as $j | [range(0; $in | length) as $i | $in[$i][$j]]] end;
def env: $ENV;
def todate: strftime("%Y-%m-%dT%H:%M:%SZ");
def fromdateiso8601: strptime("%Y-%m-%dT%H:%M:%SZ") | mktime;
def todateiso8601: strftime("%Y-%m-%dT%H:%M:%SZ");
def fromdate: fromdateiso8601;
def finites: select(isinfinite or isnan | not);
def normals: select(isnormal);
def tostream: path(def r: (.[]? | r), .; r) as $p | getpath($p) | reduce path(.[]?) as $q ([$p, .]; [$p + $q]);
def fromstream(f): { x: null, e: false } as $init | foreach f as $i ($init; if .e then $init else . end | if $i | length == 2 then setpath(["e"]; $i[0] | length == 0) | setpath(["x"] + $i[0]; $i[1]) else setpath(["e"]; $i[0] | length == 1) end; if .e then .x else empty end);
def truncate_stream(stream): . as $n | null | stream | . as $input | if (.[0] | length) > $n then setpath([0]; .[0][$n:]) else empty end;
def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row | idx_expr | tostring] |= $row);
def INDEX(idx_expr): INDEX(.[]; idx_expr);
def IN(s): any(s == .; .);
def IN(src; s): any(src == s; .);
def pick(pathexps): . as $top | reduce path(pathexps) as $p (null; setpath($p; $top | getpath($p)));
def debug(msg): (msg | debug | empty), .;
def have_literal_numbers: true;
def have_decnum: false;
"""


def _prelude_defs() -> list[tuple[str, list[str], Any]]:
    defs: list[tuple[str, list[str], Any]] = []
    for line in PRELUDE.strip().splitlines():
        line = line.strip()
        if not line.startswith("def ") or line.startswith("def @") or line.startswith("def $"):
            continue
        node = Parser(line + " .").parse()
        defs.append((node[1], node[2], node[3]))
    return defs


def prelude_env() -> Env:
    """An environment holding the prelude's functions; they share it, so they can call each
    other."""
    env = Env()
    for name, params, body in _prelude_defs():
        env.funcs[(name, len(params))] = Function(params, body, env)
    return env
