"""``html-to-markdown [FILE...]``: HTML in, CommonMark out (headings, paragraphs, emphasis,
code and ``pre`` blocks, links and images, nested lists, blockquotes, rules, tables).

Built on the standard library's ``html.parser``; ``script``, ``style``, ``head`` and
comments are dropped, whitespace outside ``pre`` collapses as a browser would render it.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from ..base import CommandContext, CommandResult
from ..text.common import describe_oserror, open_input

_SKIP = {"script", "style", "head", "title", "noscript", "template"}
_BLOCK = {"p", "div", "section", "article", "header", "footer", "main", "nav", "aside", "figure", "form",
          "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "pre", "blockquote", "hr", "table", "dl"}


class _Converter(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self.line: list[str] = []
        self.skip = 0
        self.pre = 0
        self.lists: list[list[int | str]] = []
        self.quote = 0
        self.links: list[str] = []
        self.table: list[list[str]] | None = None
        self.cell: list[str] | None = None

    # -- text ---------------------------------------------------------------------------
    def _put(self, text: str) -> None:
        if self.cell is not None:
            self.cell.append(text)
        else:
            self.line.append(text)

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        if self.pre:
            self._put(data)
            return
        text = re.sub(r"\s+", " ", data)
        current = "".join(self.cell if self.cell is not None else self.line)
        if not current or current.endswith((" ", "\n")):
            text = text.lstrip(" ")
        if text:
            self._put(re.sub(r"([*_`\[\]])", r"\\\1", text))

    def flush(self) -> None:
        text = "".join(self.line)
        if not self.pre:
            text = text.rstrip(" ")
            if not re.match(r" *(- |\d+\. )", text):  # a nested item keeps its indent
                text = text.lstrip(" ")
        self.line = []
        if not text.strip():
            return
        prefix = "> " * self.quote
        self.blocks.append("\n".join(prefix + ln if ln else prefix.rstrip() for ln in text.split("\n")))

    # -- tags ---------------------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {k: v or "" for k, v in attrs}
        if tag in _SKIP:
            self.skip += 1
            return
        if self.skip:
            return
        if tag in _BLOCK or tag == "li":
            self.flush()
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.line.append("#" * int(tag[1]) + " ")
        elif tag in ("strong", "b"):
            self._put("**")
        elif tag in ("em", "i"):
            self._put("*")
        elif tag == "code" and not self.pre:
            self._put("`")
        elif tag == "pre":
            self.pre += 1
            self.line.append("```\n")
        elif tag == "br":
            self._put("\n" if self.pre else "  \n")
        elif tag == "hr":
            self.blocks.append("* * *")
        elif tag == "a":
            self.links.append(attr.get("href", ""))
            self._put("[")
        elif tag == "img":
            self._put(f"![{attr.get('alt', '')}]({attr.get('src', '')})")
        elif tag in ("ul", "ol"):
            self.lists.append([tag, 0])
        elif tag == "li" and self.lists:
            kind = self.lists[-1]
            kind[1] = int(kind[1]) + 1
            indent = "   " * (len(self.lists) - 1)
            self.line.append(indent + (f"{kind[1]}. " if kind[0] == "ol" else "- "))
        elif tag == "blockquote":
            self.quote += 1
        elif tag == "table":
            self.table = []
        elif tag == "tr" and self.table is not None:
            self.table.append([])
        elif tag in ("td", "th") and self.table is not None:
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self.skip = max(0, self.skip - 1)
            return
        if self.skip:
            return
        if tag in ("strong", "b"):
            self._put("**")
        elif tag in ("em", "i"):
            self._put("*")
        elif tag == "code" and not self.pre:
            self._put("`")
        elif tag == "pre" and self.pre:
            text = "".join(self.line)
            self.line = [text.rstrip("\n") + "\n```"]
            self.flush()
            self.pre -= 1
        elif tag == "a" and self.links:
            href = self.links.pop()
            self._put(f"]({href})" if href else "]")
        elif tag in ("ul", "ol") and self.lists:
            self.flush()
            self.lists.pop()
            if not self.lists:
                self.blocks.append("")  # the list ends: what follows is a new paragraph
        elif tag == "blockquote" and self.quote:
            self.flush()
            self.quote -= 1
        elif tag in ("td", "th") and self.table is not None and self.cell is not None:
            if self.table:
                self.table[-1].append("".join(self.cell).strip().replace("|", "\\|"))
            self.cell = None
        elif tag == "table" and self.table is not None:
            self._emit_table(self.table)
            self.table = None
        elif tag in _BLOCK or tag == "li":
            self.flush()

    def _emit_table(self, rows: list[list[str]]) -> None:
        rows = [r for r in rows if r]
        if not rows:
            return
        width = max(len(r) for r in rows)
        rows = [r + [""] * (width - len(r)) for r in rows]
        lines = ["| " + " | ".join(rows[0]) + " |", "|" + "|".join(" --- " for _ in range(width)) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
        self.blocks.append("\n".join(lines))

    def result(self) -> str:
        self.close()
        self.flush()
        blocks: list[str] = []
        joinable = False
        for block in self.blocks:
            if not block:
                joinable = False
                continue
            # the items of one list stay together, everything else is a paragraph apart
            item = re.match(r"\s*(- |\d+\. )", block) is not None
            if blocks and item and joinable:
                blocks[-1] += "\n" + block
            else:
                blocks.append(block)
            joinable = item
        return "\n\n".join(blocks) + "\n" if blocks else ""


def convert(html: str) -> str:
    parser = _Converter()
    parser.feed(html)
    return parser.result()


def run_html_to_markdown(ctx: CommandContext, argv: list[str]) -> CommandResult:
    names = [a for a in argv[1:] if a != "--"] or ["-"]
    status = 0
    for name in names:
        try:
            data = b"".join(open_input(ctx, name))
        except OSError as exc:
            ctx.error(f"html-to-markdown: {name}: {describe_oserror(exc)}")
            status = 1
            continue
        yield convert(data.decode("utf-8", "replace")).encode("utf-8")
    return status


COMMANDS = {"html-to-markdown": run_html_to_markdown}
