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

from bot.render.commonmark import CommonMarkSyntax
from integrations.slack.limits import LINK

__all__ = ["UNFURL_OFF", "SlackMarkdown", "mrkdwn"]

UNFURL_OFF = {"unfurl_links": False, "unfurl_media": False}
"""On every message: no link previews under an answer or a card."""
_ENTITY = re.compile(r"&(?=#?[0-9A-Za-z]+;)")
_MRKDWN = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def mrkdwn(text: str) -> str:
    """Plain text as mrkdwn: Slack wants only these three escaped."""
    return text.translate(_MRKDWN)


class SlackMarkdown(CommonMarkSyntax):
    footnote_separator = "·"
    link_limit = LINK
    mention = re.compile(r"<(?=[!@#])|@(?=here|channel|everyone)", re.IGNORECASE)
    mention_word = re.compile(r"@(?=here|channel|everyone)", re.IGNORECASE)
    label_escape = re.compile(r"\\([^*&])")
    """Slack documents only ``\\*`` among escapes in link text: the other escapes go (an
    entity's ``&`` keeps its own)."""

    def escape(self, text: str, *, line_start: bool) -> str:
        return _ENTITY.sub("\\\\&", super().escape(text, line_start=line_start))

    def fence(self, info: str) -> tuple[str, str]:
        return "```", "```"

    def rule(self) -> str:
        return "─" * 12
