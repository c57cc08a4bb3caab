"""Text reports and regular-expression extraction."""

from __future__ import annotations

from corpus import case

LOG = ("2024-05-01 10:00:01 INFO user=ann action=login ip=10.0.0.1\\n"
       "2024-05-01 10:02:13 ERROR user=bob action=upload ip=10.0.0.2 code=500\\n"
       "2024-05-01 10:05:00 INFO user=ann action=upload ip=10.0.0.1\\n"
       "2024-05-01 10:07:42 WARN user=cid action=login ip=10.0.0.3\\n"
       "2024-05-01 10:09:10 ERROR user=ann action=delete ip=10.0.0.1 code=403\\n")

CASES = [
    case("log_level_counts", f"""
import re
from collections import Counter
Counter(re.findall(r"^\\S+ \\S+ (\\w+)", "{LOG}", re.M))
""", {"INFO": 2, "ERROR": 2, "WARN": 1}),
    case("log_key_values", f"""
import re
first = "{LOG}".splitlines()[1]
dict(re.findall(r"(\\w+)=(\\S+)", first))
""", {"user": "bob", "action": "upload", "ip": "10.0.0.2", "code": "500"}),
    case("log_errors_by_user", f"""
import re
errors = {{}}
for line in "{LOG}".splitlines():
    m = re.search(r"ERROR user=(\\w+) .* code=(\\d+)", line)
    if m:
        errors.setdefault(m[1], []).append(int(m[2]))
errors
""", {"bob": [500], "ann": [403]}),
    case("extract_emails", """
import re
text = "Contact ann@example.com or bob.smith+tag@mail.co.uk; not an@email"
re.findall(r"[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+", text)
""", ["ann@example.com", "bob.smith+tag@mail.co.uk"]),
    case("extract_urls_and_domains", """
import re
from urllib.parse import urlparse
text = "See https://docs.python.org/3/library/re.html and http://example.com:8080/a?b=1."
urls = re.findall(r"https?://[^\\s]+[^\\s.]", text)
[(urlparse(u).hostname, urlparse(u).port) for u in urls]
""", [["docs.python.org", None], ["example.com", 8080]]),
    case("phone_normalise", """
import re
numbers = ["(555) 123-4567", "555.123.4567", "+1 555 123 4567"]
[re.sub(r"\\D", "", n)[-10:] for n in numbers]
""", ["5551234567", "5551234567", "5551234567"]),
    case("named_groups_dates", """
import re
pattern = re.compile(r"(?P<d>\\d{2})/(?P<m>\\d{2})/(?P<y>\\d{4})")
[f"{m['y']}-{m['m']}-{m['d']}" for m in pattern.finditer("due 01/02/2024, paid 15/03/2024")]
""", ["2024-02-01", "2024-03-15"]),
    case("regex_sub_callback", """
import re
re.sub(r"\\$(\\d+(?:\\.\\d+)?)", lambda m: f"EUR {float(m[1]) * 0.9:.2f}", "Tea $3.50, cake $10")
""", "Tea EUR 3.15, cake EUR 9.00"),
    case("slugify", """
import re, unicodedata
def slugify(text):
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
[slugify("Crème Brûlée: A Recipe!"), slugify("  Hello,   World  ")]
""", ["creme-brulee-a-recipe", "hello-world"]),
    case("word_frequencies", """
import re
from collections import Counter
text = "the cat and the hat; the end. And then?"
Counter(w.lower() for w in re.findall(r"[A-Za-z']+", text)).most_common(2)
""", [["the", 3], ["and", 2]]),
    case("text_wrap_report", """
import textwrap
body = "This report summarises the quarterly results across all regions and products."
print(textwrap.fill(body, width=30, initial_indent="* ", subsequent_indent="  "))
""", None, ["* This report summarises the", "  quarterly results across all", "  regions and products."]),
    case("aligned_columns_report", """
rows = [("north", 1234.5), ("south", 99.0), ("east", 10500.25)]
width = max(len(r) for r, _ in rows)
for region, amount in rows:
    print(f"{region:<{width}} {amount:>12,.2f}")
""", None, ["north     1,234.50", "south        99.00", "east     10,500.25"]),
    case("difflib_unified", """
import difflib
a = ["one\\n", "two\\n", "three\\n"]
b = ["one\\n", "2\\n", "three\\n"]
"".join(difflib.unified_diff(a, b, "a.txt", "b.txt", n=0))
""", "--- a.txt\n+++ b.txt\n@@ -2 +2 @@\n-two\n+2\n"),
    case("difflib_close_matches", """
import difflib
difflib.get_close_matches("appel", ["ape", "apple", "peach", "puppy"], n=2)
""", ["apple", "ape"]),
    case("string_template_letter", """
from string import Template
t = Template("Dear $name, your order #$order ships on ${day}.")
t.substitute(name="Ann", order=42, day="Monday")
""", "Dear Ann, your order #42 ships on Monday."),
    case("unicode_normalise_compare", """
import unicodedata
a, b = "café", "cafe\\u0301"
[a == b, unicodedata.normalize("NFC", a) == unicodedata.normalize("NFC", b), unicodedata.name("é")]
""", [False, True, "LATIN SMALL LETTER E WITH ACUTE"]),
    case("markdown_table_builder", """
rows = [{"name": "apple", "qty": 3}, {"name": "kiwi", "qty": 12}]
header = "| " + " | ".join(rows[0]) + " |"
sep = "|" + "|".join("---" for _ in rows[0]) + "|"
body = ["| " + " | ".join(str(v) for v in r.values()) + " |" for r in rows]
"\\n".join([header, sep, *body])
""", "| name | qty |\n|---|---|\n| apple | 3 |\n| kiwi | 12 |"),
    case("shlex_split_command", """
import shlex
[shlex.split('grep -r "hello world" --include=*.py .'), shlex.quote("it's")]
""", [["grep", "-r", "hello world", "--include=*.py", "."], "'it'\"'\"'s'"]),
    case("html_escape_unescape", """
import html
[html.escape('<a href="x">T&C</a>'), html.unescape("&lt;p&gt; &amp; &eacute;")]
""", ["&lt;a href=&quot;x&quot;&gt;T&amp;C&lt;/a&gt;", "<p> & é"]),
    case("regex_split_sentences", """
import re
re.split(r"(?<=[.!?])\\s+", "Hi there. How are you? Fine! Bye.")
""", ["Hi there.", "How are you?", "Fine!", "Bye."]),
]
