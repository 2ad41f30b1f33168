"""How Telegram shows an answer: HTML messages of 4,096 characters as Telegram counts them
(after the HTML is parsed), footnotes as superscripts linked to their sources, 👍/👎 under the
last message, and the citation cards as rich messages replying to it (:mod:`.cards`)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.render.ports import Button, Payload
from bot.render.text import clip
from integrations.telegram import cards, limits
from integrations.telegram.markdown import TelegramHTML

__all__ = ["NO_PREVIEW", "TelegramPresenter"]

NO_PREVIEW = {"is_disabled": True}
"""``link_preview_options`` on every text message: no preview under an answer or a note."""


class TelegramPresenter:
    name = "telegram"
    markdown = TelegramHTML()
    thread_parts = cards.TelegramCards()
    text_budget = 3500
    """Written characters (tags included, so at least what Telegram counts), leaving room
    for the notes an answer may end with."""
    message_limit = limits.TEXT
    footnote_width = 4

    def answer_message(
        self, text: str, *, feedback: bool, buttons: Sequence[Button] = ()
    ) -> Payload:
        payload: Payload = {
            "method": "sendMessage",
            "text": text,
            "parse_mode": "HTML",
            "link_preview_options": NO_PREVIEW,
        }
        if feedback:
            payload["reply_markup"] = cards.feedback_keyboard(buttons)
        return payload

    def notice(self, text: str) -> Payload:
        written = self.markdown.escape(clip(text, limits.TEXT), line_start=True)
        return {
            "method": "sendMessage",
            "text": written,
            "parse_mode": "HTML",
            "link_preview_options": NO_PREVIEW,
        }
