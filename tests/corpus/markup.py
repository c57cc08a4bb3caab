"""XML and HTML parsing: ElementTree, minidom, html.parser, BeautifulSoup, html5lib."""

from __future__ import annotations

from corpus import case

FEED = ('<rss><channel><title>News</title>'
        '<item><title>A</title><link>http://x/a</link><category>tech</category></item>'
        '<item><title>B</title><link>http://x/b</link><category>art</category></item>'
        '<item><title>C</title><link>http://x/c</link><category>tech</category></item>'
        '</channel></rss>')
PAGE = ('<html><head><title>Shop</title></head><body>'
        '<table id="prices"><tr><th>item</th><th>price</th></tr>'
        '<tr><td>tea</td><td>$3.50</td></tr><tr><td>cake</td><td>$4.25</td></tr></table>'
        '<a href="/about">About</a> <a href="https://ext.example/x" rel="nofollow">Ext</a>'
        '<div class="note warn">Closed Monday</div></body></html>')

CASES = [
    case("rss_titles_by_category", f"""
import xml.etree.ElementTree as ET
root = ET.fromstring('{FEED}')
[i.findtext("title") for i in root.iter("item") if i.findtext("category") == "tech"]
""", ["A", "C"]),
    case("xml_build_and_serialise", """
import xml.etree.ElementTree as ET
order = ET.Element("order", id="7")
for sku, qty in [("a1", 2), ("b2", 1)]:
    ET.SubElement(order, "line", sku=sku).text = str(qty)
ET.tostring(order, encoding="unicode")
""", '<order id="7"><line sku="a1">2</line><line sku="b2">1</line></order>'),
    case("xml_with_declaration_bytes", """
import xml.etree.ElementTree as ET
ET.tostring(ET.fromstring("<a>é</a>"), encoding="utf-8", xml_declaration=True).decode()
""", "<?xml version='1.0' encoding='utf-8'?>\n<a>é</a>"),
    case("xml_namespaces", """
import xml.etree.ElementTree as ET
doc = '<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>T1</title></entry><entry><title>T2</title></entry></feed>'
ns = {"a": "http://www.w3.org/2005/Atom"}
[t.text for t in ET.fromstring(doc).findall("a:entry/a:title", ns)]
""", ["T1", "T2"]),
    case("xml_xpath_attributes", """
import xml.etree.ElementTree as ET
root = ET.fromstring('<inv><p sku="1" qty="0"/><p sku="2" qty="5"/><p sku="3" qty="0"/></inv>')
[p.get("sku") for p in root.findall(".//p[@qty='0']")]
""", ["1", "3"]),
    case("xml_indent_pretty", """
import xml.etree.ElementTree as ET
root = ET.fromstring("<a><b>1</b><c/></a>")
ET.indent(root, space="  ")
ET.tostring(root, encoding="unicode")
""", "<a>\n  <b>1</b>\n  <c />\n</a>"),
    case("minidom_pretty", """
from xml.dom import minidom
minidom.parseString("<r><x>1</x></r>").toprettyxml(indent=" ").splitlines()
""", ['<?xml version="1.0" ?>', "<r>", " <x>1</x>", "</r>"]),
    case("xml_parse_error_position", """
import xml.etree.ElementTree as ET
try:
    ET.fromstring("<a><b></a>")
except ET.ParseError as e:
    result = e.position
result
""", [1, 8]),
    case("html_parser_links", f"""
from html.parser import HTMLParser
class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []
    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.links.append(dict(attrs)["href"])
p = Links()
p.feed('{PAGE}')
p.links
""", ["/about", "https://ext.example/x"]),
    case("bs4_table_to_rows", f"""
from bs4 import BeautifulSoup
soup = BeautifulSoup('{PAGE}', "html.parser")
rows = soup.select("#prices tr")[1:]
{{r.find_all("td")[0].text: float(r.find_all("td")[1].text.lstrip("$")) for r in rows}}
""", {"tea": 3.5, "cake": 4.25}),
    case("bs4_css_selectors", f"""
from bs4 import BeautifulSoup
soup = BeautifulSoup('{PAGE}', "html.parser")
[soup.title.string, soup.select_one("div.note.warn").get_text(), [a["href"] for a in soup.select('a[rel="nofollow"]')]]
""", ["Shop", "Closed Monday", ["https://ext.example/x"]]),
    case("bs4_html5lib_repairs", """
from bs4 import BeautifulSoup
soup = BeautifulSoup("<p>one<p>two<li>x", "html5lib")
[p.get_text() for p in soup.find_all("p")]
""", ["one", "two"]),
    case("bs4_strip_tags_text", """
from bs4 import BeautifulSoup
html = "<div><h1>Title</h1><p>First <b>bold</b> para.</p><script>x()</script></div>"
soup = BeautifulSoup(html, "html.parser")
for s in soup(["script"]):
    s.decompose()
soup.get_text(" ", strip=True)
""", "Title First bold para."),
    case("html5lib_parse_tree", """
import html5lib
doc = html5lib.parse("<title>t</title><p class=a>hi", namespaceHTMLElements=False)
[doc.find(".//title").text, doc.find(".//p").get("class")]
""", ["t", "a"]),
    case("markdown_to_html", """
import markdown
markdown.markdown("# Report\\n\\n- one\\n- **two**\\n", extensions=["extra"])
""", "<h1>Report</h1>\n<ul>\n<li>one</li>\n<li><strong>two</strong></li>\n</ul>"),
    case("markdown_table_extension", """
import markdown
html = markdown.markdown("|a|b|\\n|-|-|\\n|1|2|", extensions=["tables"])
["<table>" in html, "<td>2</td>" in html]
""", [True, True]),
    case("soupsieve_direct", """
import soupsieve
from bs4 import BeautifulSoup
soup = BeautifulSoup("<ul><li>a</li><li class='x'>b</li></ul>", "html.parser")
[el.text for el in soupsieve.select("li:not(.x)", soup)]
""", ["a"]),
]
