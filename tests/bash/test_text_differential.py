"""Every text command, run in-process and as the real GNU tool, must agree byte for byte.

Each row is ``command line <<< stdin``; the files in ``FILES`` exist in the working directory.
stdout, exit status, stderr emptiness and the files left behind are compared.
"""

from __future__ import annotations

import shlex
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_text_support import assert_same

FILES: dict[str, bytes | str] = {
    "f": b"a\nb\na\nc\nd\ne\na\nfoo bar\nfoobar\n",
    "g": b"one\ntwo\nfoo",
    "d/x": b"foo\n",
    "d/s/y.txt": b"foo\nbar\n",
    "n": b"10\n9\n2\n-1\n1.5\n1e3\nabc\n\n 3\n",
    "w": b"b 2 x\na 1 y\nc 10 z\na 1 a\n",
    "u": b"a\na\nb\nA\nb\nc\nc\nc\n",
    "csv": b"a,b,c\n1,2,3\nx,,z\nnodelim\n",
    "bin": b"ab\x01cdef\x00xyzw\n\x02hello world\tx\n",
}
STDIN = b"x1\ny\nx2\n"

CASES: dict[str, list[str]] = {
    "cat": [
        "cat -n f", "cat -A bin", "cat -s -b f g", "cat -v f nosuch", "cat -E g", "cat -T csv", "cat",
        "cat -n - f <<< b'in\\n'",
    ],
    "head_tail": [
        "head -n 2 f g", "head -2 f", "head -n -2 f", "head -c 5 f", "head -c -5 f", "head -v f", "head -q f g",
        "head -n 0 f", "head d", "head -n x f", "tail -n 2 f", "tail -n +2 f", "tail -c 4 f", "tail -c +3",
        "tail -n 0 f", "tail -q f g", "tail -1", "head --lines=3 f", "tail --bytes=2 g",
    ],
    "wc": [
        "wc f", "wc -l f", "wc f g", "wc -c f g nosuch", "wc -L f", "wc -w bin", "wc -m f", "wc", "wc -l",
        "wc d", "wc nosuch f", "wc f d", "wc - f", "wc -lw f g",
    ],
    "tac_rev_seq": [
        "tac f", "tac g", "rev f", "rev g", "seq 5", "seq 2 3 20", "seq -w 8 11", "seq 0.1 0.1 1", "seq -s, 3",
        "seq -f %03g 3", "seq 1 0.5 3", "seq 10 -2 1", "seq -w -3 3", "seq 3 1", "seq 1 0.1 1.3", "seq a",
        "seq 0", "seq -w 1 0.5 10", "seq 5 -1",
    ],
    "grep": [
        "grep a f", "grep -n -C1 a f", "grep -c a f g", "grep -v a f", "grep -o o f", "grep -w foo f",
        "grep -x foo f", "grep foo d", "grep -i FOO f g", "grep -l foo f g nosuch", "grep -L foo f g",
        "grep -q foo f", "grep -e a -e b f", "grep -E 'a|b' f", "grep 'a\\|b' f", "grep -F a.b f", "grep -m2 a f",
        "grep -m1 -A2 a f", "grep -h foo f g", "grep -H foo f", "grep x", "grep -c x", "grep -n ^x",
        "grep -B2 e f", "grep -A1 -B1 -n c f", "grep -ob o f", "grep -E '(' f", "grep '\\(' f",
        "grep -s foo nosuch", "grep", "grep -E 'o{2}' f", "grep 'o\\{2\\}' f", "grep '[[:digit:]]'",
        "grep -e '' f", "grep -cv a f", "grep -E 'fo+' -o f", "grep -oE 'a|ab' f", "grep -n '' g",
        "egrep 'x|y'", "fgrep -x y", "grep -w -o 'fo*' f", "grep -E '^(a|b)$' f", "grep '^[^a-c]' f",
        "grep -e foo -e bar -o f", "grep -n -b foo f", "grep -ri FOO d/s", "grep -x -v a u",
        "grep -P '\\d+' -o", "grep -e a -f nosuch f", "grep -c a bin", "grep -a x bin", "grep -r foo d/s",
        "grep --color=always -n foo f g", "grep --color=always -C1 a f", "grep --color=always -c foo f g",
        "grep --color=always -vC1 b f", "grep --colour=always -o -i FOO f", "grep --color=auto foo f",
    ],
    "sort": [
        "sort f", "sort -r f", "sort -n n", "sort -rn n", "sort -g n", "sort -h n", "sort -u u", "sort -f u",
        "sort -fu u", "sort -k2 w", "sort -k2n w", "sort -k2,2n -k1,1 w", "sort -k2,2nr w", "sort -k3 w",
        "sort -t, -k2 csv", "sort -t , -k2,2 -r csv", "sort -s -k1,1 w", "sort -u -k1,1 w", "sort -c f",
        "sort -c u", "sort -C f", "sort -o out f", "sort -b -k2 w", "sort -k1.2 w", "sort -k 2.1,2.1 w",
        "sort -V <<< b'a1\\na10\\na2\\nb\\na1.5\\n'", "sort -M <<< b'Feb\\njan\\nxyz\\nDEC\\n'",
        "sort -h <<< b'1K\\n2M\\n10\\n1G\\n-5K\\n0\\n'", "sort -d <<< b'a-c\\nab\\n_b\\n'", "sort -nu n",
        "sort -t: -k3n <<< b'a:b:10\\nc:d:9\\ne:f:\\n'", "sort f nosuch", "sort -k0 f", "sort -t ab f",
        "sort -rk2 w", "sort --key=2 w", "sort -k2b w", "sort -kx f",
    ],
    "fields": [
        "cut -d, -f2 csv", "cut -d, -f1,3 csv", "cut -d, -f2- csv", "cut -s -d, -f2 csv", "cut -c2-3 csv",
        "cut -b1,3 csv", "cut -d, -f2 --complement csv", "cut -d, -f1,3 --output-delimiter=: csv",
        "cut -c1,3 --output-delimiter=: csv", "cut csv", "cut -f0 csv", "cut -c3-1 csv", "cut -d, -c1 csv",
        "paste f g", "paste -d, f g", "paste -s f", "paste -s -d, g", "paste -d ':,' f g w",
        "paste - - <<< b'1\\n2\\n3\\n'", "uniq u", "uniq -c u", "uniq -d u", "uniq -u u", "uniq -i u",
        "uniq -D u", "uniq -f1 w", "uniq -s1 u", "uniq -w1 u", "uniq u out", "uniq nosuch", "comm f u",
        "comm -12 u f", "comm -3 u f", "comm --output-delimiter=: u f", "join w w", "join -1 2 -2 2 w w",
        "join -t, csv csv", "join -a1 w u", "join -v1 w u", "join -o 1.1,2.2 w w", "join --check-order w u",
        "column -t w", "column -t -s, csv", "column -t -s, -o '|' csv", "column f", "column -c 20 f",
        "column -x f", "column n",
    ],
    "format": [
        "tr a-z A-Z <<< b'hello World\\n'", "tr -d l <<< b'hello\\n'", "tr -s a-c <<< b'aabbccdd\\n'",
        "tr -c 'a-z\\n' X <<< b'Hello, World!\\n'", "tr '[:lower:]' '[:upper:]' <<< b'hello\\n'",
        "tr abc x <<< b'abcd\\n'", "tr -t abc xy <<< b'abcd\\n'", "tr 'a-f' 'x[y*2]z' <<< b'abcdef\\n'",
        "tr -cd '[:alnum:]' <<< b'a-b_c 1!\\n'", "tr '\\101' x <<< b'ABA\\n'", "tr a <<< b'x'", "tr z-a x",
        "tr -s ' ' '\\n' <<< b'a  b   c\\n'", "nl f", "nl -ba f", "nl -bn f", "nl -n ln f", "nl -n rz -w 3 f",
        "nl -s ': ' f", "nl -v 10 -i 5 f", "nl -bp^f f", "nl <<< b'\\\\:\\\\:\\\\:\\nh\\n\\\\:\\\\:\\nb\\n\\\\:\\nf\\n'",
        "fold -w 5 f", "fold -s -w 7 <<< b'hello world foo bar\\n'", "fold -w 3 <<< b'a\\tbcdef\\n'",
        "fold -b -w 3 <<< b'a\\tbcdef\\n'", "fold -w0 f", "expand <<< b'a\\tb\\tc\\n'",
        "expand -t 2,5 <<< b'\\ta\\tb\\tc\\td\\n'", "expand -i <<< b'\\ta\\tb\\n'", "unexpand <<< b'        a       b\\n'",
        "unexpand -a <<< b'    a       b\\n'", "unexpand -a <<< b'abcdefg h\\n'", "unexpand -t 4 <<< b'    a   b\\n'",
        "strings bin", "strings -n 2 bin", "strings -n 6 <<< b'abcdefg\\x00abc\\n'",
    ],
    "encode": [
        "od f", "od -c bin", "od -An -tx1 f", "od -Ad -tx1 -c f", "od -a bin", "od -tx1z g", "od -w4 -tx1 g",
        "od -j2 -N3 -c f", "od -t d1 -t u4 g", "od -b f", "od -x f", "od -s f", "od -tx4 f", "od -td4 f",
        "od -i f", "od -l f", "od -tx8 f", "od -c nosuch", "od -f <<< b'\\x00\\x00\\x80\\x3f'", "xxd bin",
        "od -tf8 <<< b'\\x9a\\x99\\x99\\x99\\x99\\x99\\xb9\\x3f\\x00\\x00\\x00\\x00\\x00\\x88\\xc3\\x40'",
        "od -tf4 <<< b'\\xc3\\xf5\\x48\\x40\\x01\\x00\\x00\\x00\\x00\\x00\\x80\\x7f'", "od --endian=big -tx2 f",
        "xxd -p f", "xxd -r -p <<< b'616263\\n'", "xxd -g 4 -c 8 -u -s 2 -l 10 f", "xxd -i g", "xxd -c 4 f",
        "xxd -g 1 f", "xxd -g 0 f", "xxd -b g", "xxd -l 4 f", "xxd -s -3 f",
        "xxd -r <<< b'00000000: 6162 6364  abcd\\n'", "base64 f", "base64 -w 4 g", "base64 -w0 f",
        "base64 -d <<< b'aGVsbG8gd29ybGQ=\\n'", "base64 -d <<< b'aGVsbG8gd29ybGQ'", "base64 -d <<< b'aGVs!bG8='",
        "base64 -di <<< b'aGVs!bG8='", "md5sum f g", "sha1sum f", "sha256sum f", "md5sum", "md5sum nosuch f",
        "md5sum -b f", "md5sum --tag f", "md5sum -c <<< b'd41d8cd98f00b204e9800998ecf8427e  f\\n'",
        "md5sum -c <<< b'garbage\\n'", "sha256sum -c <<< b'00  f\\n'",
    ],
    "expr_bc": [
        "expr 1 + 2", "expr 10 - 3 \\* 2", "expr -7 % 3", "expr 1 / 0", "expr a + 1", "expr abc : 'a\\(.\\)c'",
        "expr substr hello 2 3", "expr index hello l", "expr '' \\| 0", "expr 1 +", "expr 1 2", "expr",
        "expr 1 == 01", "expr \\( 1 + 2 \\) \\* 3",
        "bc <<< b'scale=3; 1/3; -1/3; 2^-1; 7%3; obase=16; 255; 10.5; obase=20; 1234\\n'",
        "bc <<< b'2^400\\n'", "bc <<< b'scale=100; 1/7\\n'", "bc -l <<< b'e(2.5); e(-1); l(10); l(0.5); s(3); c(0.5); a(-3); j(1,2.5)\\n'",
        "bc -l <<< b'scale=50; e(1); l(3); s(1); a(1)\\n'", "bc <<< b'1/0\\n2+2\\n'", "bc <<< b'2+\\n3\\n'",
        "bc <<< b'obase=8; 64; 0.5\\n'", "bc <<< b'ibase=2; 1010\\n'", "bc <<< b'-.5; .5; 0.50; -0; 100.00\\n'",
        "bc <<< b'sqrt(2.0000); scale=10; sqrt(3)\\n'", "bc <<< b'last; 5; last + 1; .\\n'",
        "bc <<< b'define f() { return 7 }\\nf()\\n'", "bc <<< b'5\\nhalt\\n6\\n'",
    ],
    "diff": [
        "diff f f", "diff f g", "diff -q f g", "diff -s f f", "diff f nosuch", "diff -i u f", "diff - f",
        "diff d d", "diff -N f nosuch", "diff -c f u", "diff -b w n",
    ],
}

ROWS = [(group, line) for group, lines in CASES.items() for line in lines]


@pytest.mark.parametrize(("group", "line"), ROWS, ids=[f"{g}:{line}" for g, line in ROWS])
def test_command_matches_gnu(group: str, line: str) -> None:
    command, _, data = line.partition(" <<< ")
    argv = shlex.split(command)
    if shutil.which(argv[0]) is None:
        pytest.skip(f"{argv[0]} is not installed on this machine")
    stdin = eval(data) if data else STDIN  # noqa: S307 - literals written in this file
    assert_same(argv, stdin, FILES)


_WHOLE = st.integers(-30_000, 30_000)


@settings(max_examples=60, deadline=None)
@given(first=_WHOLE, step=st.sampled_from([1, -1, 1, 2, -3]) | st.integers(-7_000, 7_000).filter(bool),
       last=_WHOLE,
       separator=st.sampled_from([None, ",", " + ", ""]), operands=st.sampled_from([1, 2, 3]))
def test_seq_of_whole_numbers_matches_gnu(first: int, step: int, last: int, separator: str | None,
                                          operands: int) -> None:
    """Whole numbers take seq's chunked path (``_seq_integers``), across its chunk boundaries."""
    numbers = [str(last)] if operands == 1 else [str(first), str(last)] if operands == 2 \
        else [str(first), str(step), str(last)]
    argv = ["seq", *([f"-s{separator}"] if separator is not None else []), "--", *numbers]
    assert_same(argv)


@settings(max_examples=60, deadline=None)
@given(lines=st.lists(st.sampled_from(["a", "", "bc", "x y"]), max_size=8), ending=st.booleans(),
       delimiters=st.sampled_from([None, ",", ",;", "\\n", "\\0", "ab\\tc"]), zero=st.booleans(),
       twice=st.booleans())
def test_paste_serial_matches_gnu(lines: list[str], ending: bool, delimiters: str | None, zero: bool,
                                  twice: bool) -> None:
    """``paste -s`` joins a whole input at once (``_serial_line``); "-" named twice reads on."""
    data = ("\n".join(lines) + ("\n" if ending else "")).encode()
    if zero:
        data = data.replace(b"\n", b"\0")
    argv = ["paste", "-s", *(["-z"] if zero else []),
            *([f"-d{delimiters}"] if delimiters is not None else []), "f", "-", *(["-"] if twice else [])]
    assert_same(argv, data, {"f": data})


@pytest.mark.parametrize("numbers", [["18446744073709551610", "18446744073709551620"],
                                     ["2147483640", "2", "2147483660"], ["-2147483650", "-7", "-2147483700"]])
def test_seq_past_the_guests_word_size_matches_gnu(numbers: list[str]) -> None:
    """The guest's ``sys.maxsize`` is 2**31 - 1: no range of these is measured with ``len``."""
    assert_same(["seq", "--", *numbers])
