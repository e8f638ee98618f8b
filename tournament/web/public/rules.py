"""The event-day rules as pages the app serves (/rules/event-day, /rules/players-entry): the settings form and
the other pages link there, not to a repository path a volunteer cannot open (issue 32).

The documents are docs/rules/*.md, kept for developers as Markdown; this reads the little of Markdown they use
(headings, paragraphs, "- " lists with indented continuation lines, **bold**, *emphasis*, `code` and links to
each other) into HTML, everything escaped first. A document is read once per process."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from markupsafe import Markup, escape

RULES_DIR = Path(__file__).resolve().parents[3] / "docs" / "rules"
PAGES = {"event-day": "event-day.md", "players-entry": "players-entry.md"}

_INLINE = [
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*([^*]+)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"(?<![*\w])\*([^*\s][^*]*)\*(?![*\w])"), r"<em>\1</em>"),
]
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def _link(match: re.Match) -> str:
    text, target = match.group(1), match.group(2)
    name = target.removesuffix(".md")
    if name in PAGES:
        return f'<a href="/rules/{name}">{text}</a>'
    return text  # a path in the repository: its words, no link a reader cannot follow


def _inline(text: str) -> str:
    html = str(escape(text))
    for pattern, replacement in _INLINE:
        html = pattern.sub(replacement, html)
    return _LINK.sub(_link, html)


def to_html(markdown: str) -> tuple[str, Markup]:
    """(the title, the body as HTML) of a document in the Markdown subset above."""
    title = ""
    out: list[str] = []
    paragraph: list[str] = []
    items: list[list[str]] = []

    def close() -> None:
        if paragraph:
            out.append(f"<p>{_inline(' '.join(paragraph))}</p>")
            paragraph.clear()
        if items:
            out.append("<ul>" + "".join(f"<li>{_inline(' '.join(item))}</li>" for item in items) + "</ul>")
            items.clear()

    for raw in markdown.splitlines():
        line = raw.rstrip()
        heading = re.match(r"^(#{1,4})\s+(.*)$", line)
        if heading:
            close()
            level = len(heading.group(1))
            if level == 1 and not title:
                title = heading.group(2)
                continue
            slug = re.sub(r"[^a-z0-9]+", "-", heading.group(2).lower()).strip("-")
            out.append(f'<h{level} id="{slug}">{_inline(heading.group(2))}</h{level}>')
        elif not line.strip():
            close()
        elif line.startswith("- "):
            if paragraph:
                close()
            items.append([line[2:]])
        elif items and raw.startswith((" ", "\t")):
            items[-1].append(line.strip())
        else:
            if items:
                close()
            paragraph.append(line.strip())
    close()
    return title, Markup("\n".join(out))


@cache
def page(name: str) -> tuple[str, Markup]:
    """The rules page `name` (a key of PAGES): its title and HTML."""
    return to_html((RULES_DIR / PAGES[name]).read_text(encoding="utf-8"))
