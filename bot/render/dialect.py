"""What every chat dialect does alike around links and mentions, whatever its markup.

A platform parses some sequences as mentions (``<@id>``, ``@everyone``): a zero-width space
after each makes it inert, so nothing from upstream can ping. Every URL citebot links goes
through :func:`bot.render.links.safe_link` within the platform's limit, the ``@`` of a mention
word encoded; a link that cannot be made shows its text alone, and a footnote whose source has
no link stays a plain superscript. A dialect says only how it writes a link (:meth:`linked`)
and how it escapes text; Markdown (:mod:`bot.render.commonmark`), HTML or any other markup
subclasses this.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod

from bot.render.links import safe_link
from bot.render.text import superscript

__all__ = ["ZWSP", "Dialect"]

ZWSP = "\u200b"


class Dialect(ABC):
    link_limit: int
    """The longest URL the platform takes in a link."""
    mention: re.Pattern[str] | None = None
    """What the platform reads as a mention: a zero-width space goes after each match."""
    mention_word: re.Pattern[str] | None = None
    """The ``@`` of the mention words (``@here``): encoded in a URL, so no link spells one."""

    @abstractmethod
    def escape(self, text: str, *, line_start: bool) -> str:
        """Plain text as literal text (``line_start``: it begins a line)."""

    @abstractmethod
    def linked(self, label: str, target: str) -> str:
        """A link to ``target`` (a URL :meth:`link_url` made) labelled ``label`` (written)."""

    def link_label(self, inner: str) -> str:
        """Written text as a link's label."""
        return inner

    def url_text(self, target: str) -> str:
        """A link's URL as its label, where the answer gave it none: as it is, where the
        markup takes a URL raw (HTML escapes its ``&``)."""
        return target

    def length(self, text: str) -> int:
        """Characters the platform counts against its limits: every written one."""
        return len(text)

    def kill_mentions(self, text: str) -> str:
        """Every mention sequence made inert with a zero-width space (idempotent)."""
        if self.mention is None:
            return text
        return self.mention.sub(lambda m: m.group() + ZWSP, text)

    def link_url(self, url: str) -> str | None:
        """``url`` as the platform takes it in a link, an embed or a button (RFC 3986, at most
        :attr:`link_limit` characters; parentheses and quotes encoded, so a Markdown link ends
        where it should, and the ``@`` of a mention word too); None: show no link."""
        if self.mention_word is not None:
            url = self.mention_word.sub("%40", url)
        return safe_link(url, limit=self.link_limit, encode="()'")

    def link(self, inner: str, url: str) -> str:
        """A link to an http(s) ``url`` labelled ``inner``; ``inner`` alone (or the URL as
        text) when the URL cannot be a link here."""
        target = self.link_url(url)
        if target is None:
            return inner or self.escape(url, line_start=False)
        return self.linked(self.link_label(inner) or self.url_text(target), target)

    def footnote(self, number: int, url: str | None) -> str:
        """A footnote as shown: its superscript number, linked to its source where it can be."""
        target = self.link_url(url) if url else None
        return self.linked(superscript(number), target) if target else superscript(number)
