"""Templating: jinja2, string.Template, t-strings, format specs, email messages."""

from __future__ import annotations

from corpus import case

CASES = [
    case("jinja_loop_report", """
from jinja2 import Template
t = Template("{% for o in orders %}{{ o.id }}: {{ '%.2f'|format(o.total) }}{% if not loop.last %}, {% endif %}{% endfor %}")
t.render(orders=[{"id": 1, "total": 9.5}, {"id": 2, "total": 20}])
""", "1: 9.50, 2: 20.00"),
    case("jinja_autoescape", """
from jinja2 import Environment
env = Environment(autoescape=True)
env.from_string("<p>{{ comment }}</p>").render(comment="<script>x</script>")
""", "<p>&lt;script&gt;x&lt;/script&gt;</p>"),
    case("jinja_filters_and_macros", """
from jinja2 import Environment
env = Environment()
env.filters["money"] = lambda v: f"${v:,.2f}"
src = "{% macro row(n, v) %}{{ n|title }}={{ v|money }}{% endmacro %}{{ row('rent', 1200) }};{{ row('food', 310.5) }}"
env.from_string(src).render()
""", "Rent=$1,200.00;Food=$310.50"),
    case("jinja_dict_loader_inheritance", """
from jinja2 import Environment, DictLoader
env = Environment(loader=DictLoader({
    "base.html": "<h1>{% block title %}{% endblock %}</h1>{% block body %}{% endblock %}",
    "page.html": "{% extends 'base.html' %}{% block title %}Hi{% endblock %}{% block body %}<p>{{ msg }}</p>{% endblock %}",
}))
env.get_template("page.html").render(msg="welcome")
""", "<h1>Hi</h1><p>welcome</p>"),
    case("jinja_undefined_strict", """
from jinja2 import Environment, StrictUndefined, UndefinedError
env = Environment(undefined=StrictUndefined)
try:
    env.from_string("{{ missing }}").render()
except UndefinedError as e:
    result = str(e)
result
""", "'missing' is undefined"),
    case("markupsafe_markup", """
from markupsafe import Markup, escape
[str(Markup("<b>%s</b>") % "<i>"), str(escape("a & b"))]
""", ["<b>&lt;i&gt;</b>", "a &amp; b"]),
    case("string_template_safe", """
from string import Template
Template("$who owes $$${amount} for $thing").safe_substitute(who="Ann", amount="5")
""", "Ann owes $5 for $thing"),
    case("t_string_template", """
from string.templatelib import Template, Interpolation
name, count = "Ann", 3
t = t"{name} has {count} items"
[type(t).__name__, [p.value if isinstance(p, Interpolation) else p for p in t]]
""", ["Template", ["Ann", " has ", 3, " items"]]),
    case("format_spec_table", """
rows = [("Widget", 3, 4.5), ("Gadget", 12, 19.99)]
lines = [f"{'item':<8}|{'qty':>4}|{'price':>8}"]
lines += [f"{n:<8}|{q:>4d}|{p:>8.2f}" for n, q, p in rows]
lines
""", ["item    | qty|   price", "Widget  |   3|    4.50", "Gadget  |  12|   19.99"]),
    case("email_message_build", """
from email.message import EmailMessage
msg = EmailMessage()
msg["From"], msg["To"], msg["Subject"] = "a@x.com", "b@y.com", "Report"
msg.set_content("See attached.")
msg.add_attachment(b"id,n\\n1,2\\n", maintype="text", subtype="csv", filename="r.csv")
[msg.get_content_type(), [p.get_filename() for p in msg.iter_attachments()], msg["Subject"]]
""", ["multipart/mixed", ["r.csv"], "Report"]),
    case("email_parse_headers", """
from email import message_from_string
from email.utils import parseaddr, parsedate_to_datetime
raw = "From: Ann Lee <ann@x.com>\\nDate: Tue, 05 Mar 2024 10:20:30 +0100\\nSubject: =?utf-8?q?caf=C3=A9?=\\n\\nbody"
m = message_from_string(raw)
from email.header import decode_header, make_header
[parseaddr(m["From"]), parsedate_to_datetime(m["Date"]).isoformat(), str(make_header(decode_header(m["Subject"])))]
""", [["Ann Lee", "ann@x.com"], "2024-03-05T10:20:30+01:00", "café"]),
    case("configparser_roundtrip", """
import configparser, io
cp = configparser.ConfigParser()
cp.read_string("[server]\\nhost = example.com\\nport = 8080\\ndebug = yes\\n")
cp["server"]["port"] = "9090"
out = io.StringIO()
cp.write(out)
[cp.getboolean("server", "debug"), cp.getint("server", "port"), out.getvalue().splitlines()[:3]]
""", [True, 9090, ["[server]", "host = example.com", "port = 9090"]]),
]
