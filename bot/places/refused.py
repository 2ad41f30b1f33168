"""The one error of a place's settings: a key, value, place or document that is not one; and
what an admin is told when a change of theirs was not made."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from bot.i18n.wording import WORDING, Wording
from bot.state import StateUnavailable

__all__ = ["Refusal", "SettingRefused", "made_or_refused", "misshapen", "not_a_document"]

T = TypeVar("T")


class SettingRefused(ValueError):
    """``str()`` is one line in English that names what was refused and what is allowed (the
    command line's message); :meth:`said` is the same line in any language, for an admin in
    their platform."""

    def __init__(self, say: Callable[[Wording], str]) -> None:
        self._say = say
        super().__init__(say(WORDING))

    def said(self, wording: Wording) -> str:
        return self._say(wording)

    def at(self, where: str) -> SettingRefused:
        """The same refusal, said of an entry at ``where`` (an imported place)."""
        return SettingRefused(lambda wording: f"{where}: {self._say(wording)}")


def misshapen(where: str) -> SettingRefused:
    """A settings document (``citebot settings import``) not shaped right at ``where``
    (``$["discord:1"]``)."""
    return not_a_document(lambda wording: where)


def not_a_document(detail: Callable[[Wording], str]) -> SettingRefused:
    """What ``citebot settings import`` read is not a settings document (``detail``: where, or
    why, in the reader's words)."""
    return SettingRefused(lambda wording: wording.not_a_settings_document(detail(wording)))


@dataclass(frozen=True, slots=True)
class Refusal:
    """A change an admin asked for that was not made, and why, in their words."""

    said: str


async def made_or_refused(change: Awaitable[T], words: Wording) -> T | Refusal:
    """What ``change`` made, or why not in ``words``: it was refused, or the store did not save
    it. Every platform's settings and own answers tell an admin the same two reasons."""
    try:
        return await change
    except SettingRefused as refused:
        return Refusal(refused.said(words))
    except StateUnavailable:
        return Refusal(words.could_not_save())
