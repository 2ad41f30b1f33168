"""How Slack shows an answer: standard Markdown messages of 12,000 characters (streamed
natively), footnotes as linked superscripts, citation cards as Block Kit replies in the thread
(:mod:`.cards`): one card per source document, its passages under its one title, as on
Discord."""

from __future__ import annotations

from collections.abc import Sequence

from bot.render.ports import Button, Payload
from bot.render.text import clip
from integrations.slack import cards, limits
from integrations.slack.markdown import UNFURL_OFF, SlackMarkdown, mrkdwn

__all__ = ["SlackPresenter", "placeholder"]


def placeholder(text: str) -> Payload:
    """A message that holds an answer's place until its first text replaces it (in italics,
    as Slack shows an app's status)."""
    return {"markdown_text": f"*{SlackMarkdown().escape(text, line_start=True)}*", **UNFURL_OFF}


class SlackPresenter:
    name = "slack"
    markdown = SlackMarkdown()
    thread_parts = cards.SlackCards()
    text_budget = 10000
    message_limit = limits.MARKDOWN
    footnote_width = 4

    def answer_message(
        self, text: str, *, feedback: bool, buttons: Sequence[Button] = ()
    ) -> Payload:
        return {"markdown_text": text, **UNFURL_OFF}  # buttons: in the thread, by 👍/👎

    def notice(self, text: str) -> Payload:
        return {"text": clip(mrkdwn(text), limits.TEXT), **UNFURL_OFF}
