"""Every sentence citebot says to a person, in one place so it can be translated.

Sentences go through gettext (domain ``citebot``); a deployment that ships catalogues under
``bot/locale/<lang>/LC_MESSAGES/citebot.mo`` and sets ``LANGUAGE`` speaks its users' language.
Without catalogues the English below is used.
"""

from __future__ import annotations

import gettext
import math
from dataclasses import dataclass
from pathlib import Path

from bot.errors import (
    BadKey,
    BadRequest,
    ContentFiltered,
    RateLimited,
    StreamCut,
    TokenLimit,
    UpstreamDown,
    UpstreamError,
)

__all__ = ["WORDING", "Wording"]

_LOCALE_DIR = Path(__file__).with_name("locale")


def _seconds(seconds: float) -> str:
    whole = max(1, math.ceil(seconds))
    if whole < 90:
        return f"{whole} seconds" if whole != 1 else "1 second"
    return f"{math.ceil(whole / 60)} minutes"


@dataclass(frozen=True, slots=True)
class Wording:
    """The user-facing sentences; ``language`` picks a gettext catalogue when one is shipped."""

    language: str | None = None

    def _(self, text: str) -> str:
        languages = [self.language] if self.language else None
        translation = gettext.translation("citebot", _LOCALE_DIR, languages=languages,
                                          fallback=True)
        return translation.gettext(text)

    def explain(self, error: UpstreamError) -> str:
        """One friendly paragraph for a failed answer: what happened and what to do."""
        if isinstance(error, RateLimited):
            return self.rate_limited(error.retry_after)
        if isinstance(error, BadKey):
            return self._("citebot is not set up correctly: the answer service refused its key. "
                          "Please tell whoever runs citebot to check UPSTREAM_API_KEY.")
        if isinstance(error, TokenLimit):
            return self._("That question, with the conversation before it, is too long for the "
                          "answer service. Please ask a shorter question or start a new thread.")
        if isinstance(error, ContentFiltered):
            return self.filtered()
        if isinstance(error, StreamCut):
            return self.interrupted()
        if isinstance(error, BadRequest):
            return self._("The answer service could not handle that question. Please rephrase "
                          "it and ask again.")
        if isinstance(error, UpstreamDown):
            return self._("I could not reach the answer service just now. Please try again in "
                          "a minute.")
        return self._("Something went wrong while getting your answer. Please try again.")

    def rate_limited(self, retry_after: float | None) -> str:
        if retry_after is None:
            return self._("The answer service is busy right now. Please try again in a minute.")
        return self._("The answer service is busy right now. Please try again in {wait}."
                      ).format(wait=_seconds(retry_after))

    def interrupted(self) -> str:
        return self._("The answer was interrupted before it finished; what you see above is "
                      "what arrived. Please ask again for the rest.")

    def cut_short(self) -> str:
        return self._("The answer reached the length limit of the answer service and stops "
                      "here. Ask a follow-up question for the rest.")

    def filtered(self) -> str:
        return self._("I can't help with that question. Please ask about something else.")

    def empty(self) -> str:
        return self._("The answer service sent back an empty answer. Please try rephrasing "
                      "your question.")

    def thinking(self) -> str:
        return self._("is thinking…")

    def restarting(self) -> str:
        return self._("citebot is restarting. Please ask again in a moment.")

    def queued(self, position: int) -> str:
        return self._("Many questions are being answered right now; yours is number {n} in "
                      "line and will start shortly.").format(n=position)

    def after_thread_turn(self, position: int) -> str:
        if position == 1:
            return self._("I will answer this as soon as I finish the question before it in "
                          "this thread.")
        return self._("I will answer this after the {n} questions before it in this thread."
                      ).format(n=position)

    def user_rate_limited(self, retry_after: float) -> str:
        return self._("You have asked a lot of questions in a short time. Please wait "
                      "{wait} and ask again.").format(wait=_seconds(retry_after))

    def question_too_long(self, limit: int) -> str:
        return self._("That question is too long: please keep it under {limit} characters."
                      ).format(limit=limit)

    def empty_question(self) -> str:
        return self._("Please include a question, for example: “What does paragraph 34 of "
                      "Cherishing Life say?”")

    def not_allowed_here(self) -> str:
        return self._("citebot is not enabled here. Please ask in a channel where it is "
                      "allowed.")

    def feedback_thanks(self) -> str:
        return self._("Thank you for the feedback!")


WORDING = Wording()
