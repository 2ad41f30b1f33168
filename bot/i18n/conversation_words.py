"""What citebot says around a conversation on every platform: why an answer got a 👎, a claim
checked against the sources, an admin's change to a place's settings. Part of
:class:`~bot.i18n.wording.Wording`, kept apart so that module stays readable; extracted and
translated with every other sentence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

__all__ = ["REASONS", "VOTES", "ConversationWording", "Reason", "ReasonLabels", "Vote"]

Vote = Literal["up", "down"]
VOTES: tuple[Vote, ...] = ("up", "down")
"""A person's 👍 and 👎 on an answer: the only values a vote takes, whatever a button sent."""

Reason = Literal["sources_do_not_say", "quote_not_on_page", "does_not_answer", "other"]
REASONS: tuple[Reason, ...] = (
    "sources_do_not_say",
    "quote_not_on_page",
    "does_not_answer",
    "other",
)
"""Why a 👎, in the order a person is offered them."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ReasonLabels:
    """The words of the question a 👎 opens (a modal, inline buttons)."""

    title: str
    """What was wrong with this answer?"""
    reasons: dict[Reason, str]
    """Each reason as a person picks it."""
    comment: str
    """The label of the free text, which is optional."""
    send: str


class _Speaker(Protocol):
    def _(self, text: str) -> str: ...


class ConversationWording:
    """Mixed into :class:`~bot.i18n.wording.Wording`, which speaks its language."""

    __slots__ = ()

    @property
    def reason_labels(self: _Speaker) -> ReasonLabels:
        return ReasonLabels(
            title=self._("What was wrong with this answer?"),
            reasons={
                "sources_do_not_say": self._("The sources do not say this"),
                "quote_not_on_page": self._("A quote is not on its page"),
                "does_not_answer": self._("It does not answer my question"),
                "other": self._("Something else"),
            },
            comment=self._("Tell us more (optional)"),
            send=self._("Send"),
        )

    def reason_thanks(self: _Speaker) -> str:
        return self._("Thank you: what was wrong is noted for whoever runs citebot.")

    def check_with_sources(self: _Speaker) -> str:
        """The command that checks a message's claim against the sources (a menu entry)."""
        return self._("Check with sources")

    def check_with_sources_privately(self: _Speaker) -> str:
        """The same command, its answer shown to the asker alone (a menu entry of its own
        where the platform lets a command take no option)."""
        return self._("Check with sources privately")

    def claim_question(self: _Speaker, claim: str, quoted: str) -> str:
        """The question that goes upstream for a claim to check; ``quoted`` is how the language
        quotes (:attr:`~bot.i18n.wording.Labels.quoted`, with ``{quote}``)."""
        return self._(
            "What do the sources say about this claim? Say whether they support it, "
            "contradict it, or do not address it: {claim}"
        ).format(claim=quoted.format(quote=claim))

    def nothing_to_check(self: _Speaker) -> str:
        return self._("That message has no text to check against the sources.")

    def admins_only(self: _Speaker) -> str:
        return self._("Only the admins here can change citebot's settings.")

    def no_place_settings_here(self: _Speaker) -> str:
        """Settings asked for in a conversation with the bot alone, outside any server."""
        return self._(
            "citebot's settings belong to a server, a workspace or a group, not to a "
            "conversation with citebot alone."
        )

    def could_not_save(self: _Speaker) -> str:
        return self._(
            "citebot could not save that change: its store is not responding. Nothing changed; "
            "please try again in a moment."
        )

    def setting_saved(self: _Speaker, key: str, value: str) -> str:
        return self._("{key} is now {value} here.").format(key=key, value=value)

    def setting_cleared(self: _Speaker, key: str, value: str) -> str:
        """An admin removed a place's own value: the server's or the default applies."""
        return self._("{key} here now follows the default ({value}).").format(key=key, value=value)
