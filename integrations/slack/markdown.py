"""Slack's two markups: standard Markdown for answers (``markdown_text``), mrkdwn for cards.

Answers go out as ``markdown_text`` (the only thing Slack's native stream methods take), so they
are written in standard Markdown and every message keeps that one dialect. Card text is mrkdwn:
there only ``&``, ``<`` and ``>`` are escaped, which also makes ``<!channel>`` and friends
inert.
"""

from __future__ import annotations

import re

from bot.render.commonmark import ZWSP, CommonMarkSyntax

__all__ = ["UNFURL_OFF", "SlackMarkdown", "kill_mentions", "link_url", "mrkdwn"]

UNFURL_OFF = {"unfurl_links": False, "unfurl_media": False}
"""On every message: no link previews under an answer or a card."""
_MENTION = re.compile(r"<(?=[!@#])")
_ENTITY = re.compile(r"&(?=#?[0-9A-Za-z]+;)")
_MRKDWN = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_URL_UNSAFE = str.maketrans({c: f"%{ord(c):02X}" for c in "<>()|\"' \\"})


def kill_mentions(text: str) -> str:
    return _MENTION.sub("<" + ZWSP, text)


def mrkdwn(text: str) -> str:
    """Plain text as mrkdwn: Slack wants only these three escaped."""
    return text.translate(_MRKDWN)


def link_url(url: str) -> str:
    return url.translate(_URL_UNSAFE)


class SlackMarkdown(CommonMarkSyntax):
    footnote_separator = ""

    def kill_mentions(self, text: str) -> str:
        return kill_mentions(text)

    def escape(self, text: str, *, line_start: bool) -> str:
        return _ENTITY.sub("\\\\&", super().escape(text, line_start=line_start))

    def link(self, inner: str, url: str) -> str:
        return f"[{inner or self.escape(url, line_start=False)}]({link_url(url)})"

    def rule(self) -> str:
        return "***"

    def footnote(self, number: int, url: str | None) -> str:
        plain = f"\\[{number}\\]"
        return f"[{plain}]({link_url(url)})" if url else plain
