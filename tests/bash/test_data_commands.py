"""The CSV toolkit ``xan``, ``html-to-markdown``, ``clear`` and ``history`` (sqlite3 and yq
are compared with the real tools in ``cases/cmd_data.test.sh``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bash import run_script

SALES = "region,product,units,price\nnorth,apple,3,1.5\nsouth,pear,10,2\nnorth,pear,,2\neast,apple,7,1.25\n"


def sh(tmp_path: Path, script: str) -> tuple[str, int, str]:
    (tmp_path / "sales.csv").write_text(SALES)
    result = run_script(script, root=str(tmp_path))
    return result.stdout.decode(), result.exit_code, result.stderr.decode()


def test_select_by_name_index_range_and_exclusion(tmp_path: Path) -> None:
    assert sh(tmp_path, "xan select product,0 sales.csv | head -2")[0] == "product,region\napple,north\n"
    assert sh(tmp_path, "xan select product:price sales.csv | head -1")[0] == "product,units,price\n"
    assert sh(tmp_path, "xan select '!units,price' sales.csv | tail -1")[0] == "east,apple\n"


def test_search_filters_rows_by_regex_in_chosen_columns(tmp_path: Path) -> None:
    out, status, _ = sh(tmp_path, "xan search -s product '^p' sales.csv")
    assert status == 0 and out == "region,product,units,price\nsouth,pear,10,2\nnorth,pear,,2\n"
    assert sh(tmp_path, "xan search -v -i NORTH sales.csv | xan count")[0] == "2\n"


def test_sort_text_numeric_and_reversed(tmp_path: Path) -> None:
    assert sh(tmp_path, "xan sort -s region sales.csv | xan select region")[0] == "region\neast\nnorth\nnorth\nsouth\n"
    assert sh(tmp_path, "xan sort -N -R -s units sales.csv | xan select units")[0] == 'units\n""\n10\n7\n3\n'


def test_slice_and_head(tmp_path: Path) -> None:
    assert sh(tmp_path, "xan slice -s 1 -l 2 sales.csv | xan select product")[0] == "product\npear\npear\n"
    assert sh(tmp_path, "xan slice -e 1 sales.csv")[0] == "region,product,units,price\nnorth,apple,3,1.5\n"


def test_stats_describes_each_column(tmp_path: Path) -> None:
    out = sh(tmp_path, "xan stats -s units,price,region sales.csv")[0]
    assert out.splitlines() == [
        "field,count,count_empty,type,sum,mean,min,max",
        "units,4,1,int,20,6.6666666667,3,10",
        "price,4,0,float,6.75,1.6875,1.25,2",
        "region,4,0,string,,,east,south",
    ]


def test_frequency_counts_values_most_common_first(tmp_path: Path) -> None:
    out = sh(tmp_path, "xan frequency -s product sales.csv")[0]
    assert out == "field,value,count\nproduct,apple,2\nproduct,pear,2\n"


def test_headers_count_and_view(tmp_path: Path) -> None:
    assert sh(tmp_path, "xan headers sales.csv")[0] == "0  region\n1  product\n2  units\n3  price\n"
    assert sh(tmp_path, "cat sales.csv | xan count")[0] == "4\n"
    assert sh(tmp_path, "xan view sales.csv | head -2")[0] == "region | product | units | price\n-------+---------+-------+------\n"


@pytest.mark.parametrize("script", ["xan select nope sales.csv", "xan sort -q sales.csv", "xan frobnicate sales.csv",
                                    "xan count missing.csv", "xan"])
def test_bad_usage_is_status_1_with_a_message(tmp_path: Path, script: str) -> None:
    out, status, err = sh(tmp_path, script)
    assert status == 1 and out == "" and err.startswith(("xan", "usage"))


def test_html_to_markdown_covers_the_common_elements(tmp_path: Path) -> None:
    html = ("<html><head><title>t</title><style>p{}</style></head><body><h1>Title</h1>"
            "<p>Some <b>bold</b> and <em>soft</em> text with <a href='https://x.org'>a link</a>"
            " and <code>x = 1</code>.</p><ul><li>one</li><li>two<ul><li>inner</li></ul></li></ul>"
            "<ol><li>first</li><li>second</li></ol><pre>  keep\n   this</pre><blockquote><p>quoted</p></blockquote>"
            "<hr><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>"
            "<p>img <img src='p.png' alt='pic'><br>next</p><script>alert(1)</script></body></html>")
    (tmp_path / "page.html").write_text(html)
    result = run_script("html-to-markdown page.html", root=str(tmp_path))
    assert result.exit_code == 0
    assert result.stdout.decode() == (
        "# Title\n\n"
        "Some **bold** and *soft* text with [a link](https://x.org) and `x = 1`.\n\n"
        "- one\n- two\n   - inner\n\n"
        "1. first\n2. second\n\n"
        "```\n  keep\n   this\n```\n\n"
        "> quoted\n\n"
        "* * *\n\n"
        "| a | b |\n| --- | --- |\n| 1 | 2 |\n\n"
        "img ![pic](p.png)  \nnext\n"
    )


def test_html_to_markdown_reads_stdin_and_escapes_markdown(tmp_path: Path) -> None:
    result = run_script("echo '<p>a_b *c*   d</p>' | html-to-markdown", root=str(tmp_path))
    assert result.stdout == b"a\\_b \\*c\\* d\n"


def test_clear_on_a_terminal_and_on_a_dumb_one(tmp_path: Path) -> None:
    assert run_script("clear; echo $?", root=str(tmp_path)).stdout == b"0\n"
    assert run_script("TERM=xterm clear", root=str(tmp_path)).stdout == b"\x1b[H\x1b[2J\x1b[3J"


def test_history_is_empty_as_in_a_non_interactive_bash(tmp_path: Path) -> None:
    result = run_script("echo a; set -o history; history; echo $?; history -z", root=str(tmp_path))
    assert result.stdout == b"a\n0\n" and result.exit_code == 2
