"""Teams' Markdown: the answer's text as Teams shows a bot's ``markdown`` message, footnotes as
Teams' own citation markers.

Teams renders a subset of Markdown in a text message (learn.microsoft.com/microsoftteams/
platform/bots/how-to/format-your-bot-messages): bold, italic, strikethrough, lists, code,
quotes and links, but no heading, horizontal rule, table or image. So a heading is a bold line,
a rule a line of ``─`` (tables and task lists are written as lists by the core), and a code
fence names no language. ``extendedmarkdown`` (CommonMark with tables) is in public preview
(microsoft/teams.py#517) and not yet shown by every client (microsoft/teams.ts#825).

A footnote up to :data:`~integrations.teams.limits.CITATIONS` is ``[n]``, the marker Teams
pairs with the message's citation ``n`` (its popup carries the source: :mod:`.cards`); past
that a message holds no more citations, so the number is a superscript linked to its source.
A ``[n]`` the upstream wrote as text gets a zero-width space after its ``[``, so Teams never
takes it for a citation; code keeps its brackets as written (``a[1]`` must copy as it
reads). Teams pings only through a mention entity, which citebot never sends; an ``<at>``
tag in the text is made inert all the same.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.render.commonmark import ZWSP, CommonMarkSyntax
from integrations.teams.limits import CITATIONS, LINK

__all__ = ["MARKER", "TeamsMarkdown", "markers", "outside_code"]

MARKER = re.compile(r"\[([0-9]+)\]")
"""A citation marker as Teams reads it in a message's text."""
_CODE = re.compile(r"^```.*?^```[^\n]*$|(`+)(?!`).*?(?<!`)\1(?!`)", re.S | re.M)
"""A code block or span: its brackets are the code's."""
_ESCAPED_MARKER = re.compile(r"\\\[(?=[0-9]+\\\])")
_ENTITY = re.compile(r"&(?=#?[0-9A-Za-z]+;)")


class TeamsMarkdown(CommonMarkSyntax):
    footnote_separator = ""
    link_limit = LINK
    mention = re.compile(r"<(?=/?at\b)", re.IGNORECASE)

    def escape(self, text: str, *, line_start: bool) -> str:
        written = _ENTITY.sub("\\\\&", super().escape(text, line_start=line_start))
        return _ESCAPED_MARKER.sub("\\\\[" + ZWSP, written)

    def heading(self, level: int, inner: str) -> str:
        """A bold line (Teams shows no heading); an empty heading, a rule where it stood."""
        return self.emphasis("strong", inner) or self.rule()

    def fence(self, info: str) -> tuple[str, str]:
        return "```", "```"

    def rule(self) -> str:
        return "─" * 12

    def footnote(self, number: int, url: str | None) -> str:
        """``[n]``, Teams' citation marker, while the message can hold its citation; past
        :data:`CITATIONS`, a superscript linked to the source where it can be."""
        if number <= CITATIONS:
            return f"[{number}]"
        return super().footnote(number, url)


def outside_code(text: str, change: Callable[[str], str]) -> str:
    """``text`` with ``change`` applied to everything but its code."""
    out: list[str] = []
    at = 0
    for code in _CODE.finditer(text):
        out += [change(text[at : code.start()]), code.group()]
        at = code.end()
    return "".join([*out, change(text[at:])])


def markers(text: str) -> list[int]:
    """The citation markers of ``text`` (outside its code), in order."""
    found: list[int] = []

    def collect(part: str) -> str:
        found.extend(int(n) for n in MARKER.findall(part))
        return part

    outside_code(text, collect)
    return found
