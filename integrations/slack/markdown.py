"""Slack's two markups: standard Markdown for answers (``markdown_text``), mrkdwn for cards.

Answers go out as ``markdown_text`` (the only thing Slack's native stream methods take), so they
are written in standard Markdown and every message keeps that one dialect, in the forms Slack's
markdown block documents: links ``[text](url)`` (a footnote is ``[¹](url)``, with no escape
inside its text), code fences without a language, and no horizontal line (the markdown block
lists fenced-code highlighting, horizontal lines, tables and task lists as unsupported; tables
and task lists are written as lists and text already). Card text is mrkdwn: there only ``&``,
``<`` and ``>`` are escaped, which also makes ``<!channel>`` and friends inert. Mention words
(``@here``, ``@channel``, ``@everyone``) get a zero-width space everywhere, on top of
``verbatim`` text objects, which Slack does not parse for them.
"""

from __future__ import annotations

import re

from bot.render.commonmark import ZWSP, CommonMarkSyntax
from bot.render.links import safe_link
from bot.render.text import superscript
from integrations.slack.limits import LINK

__all__ = ["UNFURL_OFF", "SlackMarkdown", "kill_mentions", "link_url", "mrkdwn"]

UNFURL_OFF = {"unfurl_links": False, "unfurl_media": False}
"""On every message: no link previews under an answer or a card."""
_MENTION = re.compile(r"<(?=[!@#])|@(?=here|channel|everyone)", re.IGNORECASE)
_MENTION_AT = re.compile(r"@(?=here|channel|everyone)", re.IGNORECASE)
_ENTITY = re.compile(r"&(?=#?[0-9A-Za-z]+;)")
_LABEL_ESCAPE = re.compile(r"\\([^*&])")
_MRKDWN = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def kill_mentions(text: str) -> str:
    """Every Slack mention sequence made inert with a zero-width space (idempotent)."""
    return _MENTION.sub(lambda m: m.group() + ZWSP, text)


def mrkdwn(text: str) -> str:
    """Plain text as mrkdwn: Slack wants only these three escaped."""
    return text.translate(_MRKDWN)


def link_url(url: str) -> str | None:
    """``url`` as Slack takes it in a mrkdwn or Markdown link or a button (RFC 3986, at most
    3,000 characters; parentheses encoded so a Markdown link ends where it should, and the
    ``@`` of a mention word too); None: show no link."""
    return safe_link(_MENTION_AT.sub("%40", url), limit=LINK, encode="()'")


class SlackMarkdown(CommonMarkSyntax):
    footnote_separator = "·"

    def kill_mentions(self, text: str) -> str:
        return kill_mentions(text)

    def escape(self, text: str, *, line_start: bool) -> str:
        return _ENTITY.sub("\\\\&", super().escape(text, line_start=line_start))

    def link(self, inner: str, url: str) -> str:
        """Slack documents only ``\\*`` among escapes in link text: brackets become
        parentheses and the other escapes go (an entity's ``&`` keeps its own)."""
        target = link_url(url)
        if target is None:
            return inner or self.escape(url, line_start=False)
        label = _LABEL_ESCAPE.sub(r"\1", inner).replace("[", "(").replace("]", ")").strip()
        return f"[{label or target}]({target})"

    def fence(self, info: str) -> tuple[str, str]:
        return "```", "```"

    def rule(self) -> str:
        return "─" * 12

    def footnote(self, number: int, url: str | None) -> str:
        target = link_url(url) if url else None
        return f"[{superscript(number)}]({target})" if target else superscript(number)
