"""The rules page of a variant (``/rules/<variant>``): its table rules and ``docs/variants/<variant>.md`` as HTML.

The Markdown is rendered on the server by markdown-it-py (CommonMark, tables on) with raw HTML turned off, so
nothing in a document can become markup: ``<script>`` in the text is shown as text, and markdown-it's own link
check refuses ``javascript:`` and other unsafe addresses. Links are rewritten for the web: a sibling variant
page (``cuban.md``) goes to its ``/rules/cuban`` page, an anchor stays, ``http(s)`` addresses stay, and a link
to any other file of the repository keeps only its words (the server does not serve the repository).
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")
_SIBLING = re.compile(r"^([a-z][a-z-]*)\.md(#[\w-]+)?$")


def docs_dir() -> Path | None:
    """``docs/variants`` of a source checkout (an installed wheel has no docs: the page then shows the table rules)."""
    candidate = Path(__file__).resolve().parents[2] / "docs" / "variants"
    return candidate if candidate.is_dir() else None


def slug(text: str) -> str:
    """A heading's anchor as GitHub makes it (the docs link to ``#not-implemented-yet`` and the like)."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def _web_href(href: str, variants: set[str]) -> str | None:
    """Where a document's link goes on the web site, or None to keep only its words."""
    if href.startswith(("#", "https://", "http://")):
        return href
    sibling = _SIBLING.match(href)
    if sibling and sibling.group(1) in variants:
        return f"/rules/{sibling.group(1)}{sibling.group(2) or ''}"
    return None


# A seat named by number ("seat 0", "seats 0, 2, 4 against 1, 3, 5"): the documents count from 0 as the
# notation does; players count from 1, as the table and the replay viewer do.
# Not "per seat 1, 2 or null" (values per seat) nor "seat 2 players" (the verb), nor an offset "seat + 2".
_SEATS = re.compile(r"(?<!per )\b(seats?)(\s+)(\d+(?:(?:\s*,\s*|\s+(?:and|against|or|to)\s+)\d+)*)"
                    r"(?!\s*[+\-*/])(?!\s+players)")
# A file of the repository named in a document ("classic-canasta-bicycle.txt", "shared/rules/"): a developer's
# reference, not a player's: the page says "its text" (the source's name stays beside it).
_FILE = re.compile(r"^(?:[\w.-]+/)*[\w.-]+\.(?:txt|py|md|json)$|^shared/rules/?$")


def players_count_from_one(text: str) -> str:
    """Seat numbers in ``text`` moved from the notation's 0-based count to the players' 1-based one."""
    def one(match: re.Match[str]) -> str:
        numbers = re.sub(r"\d+", lambda n: str(int(n.group()) + 1), match.group(3))
        return f"{match.group(1)}{match.group(2)}{numbers}"
    return _SEATS.sub(one, text)


_CODE = re.compile(r"(```.*?```|`[^`\n]*`)", re.DOTALL)


def _seats_outside_code(markdown: str) -> str:
    """``players_count_from_one`` on the Markdown's prose (a sentence may break a list of seats across lines);
    code spans and fenced blocks keep the notation's numbers."""
    parts = _CODE.split(markdown)
    return "".join(part if k % 2 else players_count_from_one(part) for k, part in enumerate(parts))


def _for_players(token: Token) -> None:
    """A player's words in a code span: a file of the repository becomes words."""
    if token.type == "code_inline" and _FILE.match(token.content):
        token.type, token.content = "text", ("the rule texts" if token.content.startswith("shared") else "its text")


def _rewrite(tokens: list[Token], variants: set[str]) -> None:
    for index, token in enumerate(tokens):
        if token.type == "heading_open":  # an anchor for the document's links to its own sections
            following = tokens[index + 1] if index + 1 < len(tokens) else None
            if following is not None and following.type == "inline":
                token.attrSet("id", slug(following.content))
        elif token.type == "table_open":  # a wide table scrolls on a phone: keyboard users must reach it too
            token.attrSet("tabindex", "0")
        if token.children:
            opened: list[Token] = []
            for child in token.children:
                _for_players(child)
                if child.type == "link_open":
                    href = _web_href(str(child.attrGet("href") or ""), variants)
                    if href is None:
                        child.tag, child.attrs = "span", {}
                    else:
                        child.attrSet("href", href)
                    opened.append(child)
                elif child.type == "link_close" and opened:
                    child.tag = opened.pop().tag


def render_markdown(text: str, variants: set[str]) -> str:
    """``text`` (Markdown) as HTML, raw HTML escaped, links rewritten for the web site."""
    tokens = _MARKDOWN.parse(_seats_outside_code(text))
    _rewrite(tokens, variants)
    rendered: str = _MARKDOWN.renderer.render(tokens, _MARKDOWN.options, {})
    return rendered


def option_words(name: str) -> str:
    """A table rule's name in words, as the start page shows it (``going_out_bonus`` -> "Going out bonus")."""
    words = name.replace("_", " ")
    return words[:1].upper() + words[1:]


def _allowed(option: dict[str, Any]) -> str:
    if option["choices"] is not None:
        return " · ".join(map(str, option["choices"]))
    return "" if option["minimum"] is None else f"{option['minimum']} to {option['maximum']}"


def _default(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def rules_page(info: dict[str, Any], variants: set[str]) -> str:
    """The whole page for one entry of ``variants_info()``."""
    docs = docs_dir()
    path = docs / f"{info['name']}.md" if docs is not None else None
    text = path.read_text(encoding="utf-8") if path is not None and path.is_file() else ""
    esc = html.escape
    rows = "".join(
        f"<tr><th scope='row'>{esc(option_words(o['name']))}<br><code>{esc(o['name'])}</code></th>"
        f"<td data-label='Default'>{esc(_default(o['default']))}</td>"
        f"<td data-label='Values'>{esc(_allowed(o))}</td>"
        f"<td>{esc(o['help'])}" + (f"<br><small>{esc(o['source'])}</small>" if o["source"] else "") + "</td></tr>"
        for o in info["options"])
    table = ("<div class='table-scroll' tabindex='0' role='region' aria-label='Table rules'><table class='rule-options'><caption class='sr-only'>Table rules</caption><thead><tr>"
             "<th scope='col'>Table rule</th><th scope='col'>Default</th><th scope='col'>Values</th>"
             f"<th scope='col'>Meaning</th></tr></thead><tbody>{rows}</tbody></table></div>") if rows else \
        "<p>This variant has no table rules to choose.</p>"
    # the document's own title ("# Classic Canasta (`classic`)") would repeat the page's h1
    text = re.sub(r"\A\s*# [^\n]*\n", "", text)
    body = render_markdown(text, variants) if text else "<p>The rules text is not installed with this server.</p>"
    title = esc(info["title"])
    return ("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{title}: rules</title><link rel='icon' href='/favicon.ico' type='image/svg+xml'>"
            "<link rel='stylesheet' href='/static/app.css'></head><body class='page' data-ready='true'>"
            "<nav aria-label='site'><a href='/'>← start page</a></nav>"
            f"<main id='rules'><h1 id='title'>{title}</h1><p id='description'>{esc(info['description'])}</p>"
            "<p class='jump'><a href='#text'>The rules</a> · <a href='#table-rules'>Table rules</a></p>"
            f"<div id='text' class='rules-text'>{body}</div>"
            f"<h2 id='table-rules'>Table rules</h2><p>What a table may change when the game is created, with "
            f"its default.</p>{table}</main></body></html>")
