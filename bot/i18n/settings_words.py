"""What citebot says about a place's settings (``bot/places``): refusals that name the setting
and what it takes, and the words around a listing. Part of :class:`~bot.i18n.wording.Wording`,
kept apart so that module stays readable; extracted and translated with every other sentence."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from babel import Locale
from babel.lists import format_list

__all__ = ["SettingsLabels", "SettingsWording"]


@dataclass(frozen=True, slots=True, kw_only=True)
class SettingsLabels:
    """The words around a place's settings when they are listed: column heads and the values
    that are not a setting's own."""

    place: str
    setting: str
    value: str
    set_in: str
    """Where a value comes from: a place, or ``default``."""
    default: str
    """A value no place set: the worker's environment's (``CITEBOT_LANGUAGE``, ``QUOTE_CHECK``)
    or citebot's own."""
    when: str
    by: str
    before: str
    after: str
    not_set: str


class _Speaker(Protocol):
    @property
    def locale(self) -> Locale: ...

    def _(self, text: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def number(self, n: float) -> str: ...

    def duration(self, seconds: float) -> str: ...


def _one_of(speaker: _Speaker, choices: Sequence[str]) -> str:
    """``a, b or c``, as the language lists alternatives."""
    return format_list(list(choices), style="or", locale=speaker.locale)


class SettingsWording:
    """Mixed into :class:`~bot.i18n.wording.Wording`, which speaks its language."""

    __slots__ = ()

    @property
    def settings_labels(self: _Speaker) -> SettingsLabels:
        return SettingsLabels(
            place=self._("Place"),
            setting=self._("Setting"),
            value=self._("Value"),
            set_in=self._("Set in"),
            default=self._("default"),
            when=self._("When"),
            by=self._("Changed by"),
            before=self._("Before"),
            after=self._("After"),
            not_set=self._("not set"),
        )

    def no_such_setting(self: _Speaker, key: str, keys: Sequence[str]) -> str:
        return self._("{key}: there is no such setting; use one of {keys}").format(
            key=key, keys=_one_of(self, keys)
        )

    def setting_on_or_off(self: _Speaker, key: str, got: str) -> str:
        return self._("{key}: must be on or off, got {got}").format(key=key, got=got)

    def setting_one_of(self: _Speaker, key: str, choices: Sequence[str], got: str) -> str:
        return self._("{key}: must be one of {choices}, got {got}").format(
            key=key, choices=_one_of(self, choices), got=got
        )

    def setting_count(self: _Speaker, key: str, most: int, got: str) -> str:
        """A daily limit; ``none`` is no limit."""
        return self._("{key}: must be a whole number from 1 to {most}, or none, got {got}").format(
            key=key, most=self.number(most), got=got
        )

    def setting_dollars(self: _Speaker, key: str, most: int, got: str) -> str:
        """A daily amount of US dollars (``daily_cost``); ``none`` is no limit."""
        return self._(
            "{key}: must be US dollars from 0.01 to {most}, such as 5 or 2.50, or none, got {got}"
        ).format(key=key, most=self.number(most), got=got)

    def setting_one_line(self: _Speaker, key: str) -> str:
        return self._("{key}: must be one line, without line breaks or control characters").format(
            key=key
        )

    def setting_too_long(self: _Speaker, key: str, limit: int, length: int) -> str:
        return self.ngettext(
            "{key}: must be at most {limit} character long, got {length}",
            "{key}: must be at most {limit} characters long, got {length}",
            limit,
        ).format(key=key, limit=self.number(limit), length=self.number(length))

    def not_a_place(self: _Speaker, place: str, forms: Sequence[str]) -> str:
        return self._("{place}: not a place; write {forms}").format(
            place=place, forms=_one_of(self, forms)
        )

    def not_a_settings_document(self: _Speaker, detail: str) -> str:
        """What ``citebot settings import`` read is not what ``export`` writes."""
        return self._(
            "not a settings document ({detail}): write a JSON object of places, each with "
            "its settings, as citebot settings export prints it"
        ).format(detail=detail)

    def document_larger_than(self: _Speaker, mib: int) -> str:
        """Why a file is no settings document: its size (said inside
        :meth:`not_a_settings_document`)."""
        return self._("larger than {size} MiB").format(size=mib)

    def document_deeper_than(self: _Speaker, levels: int) -> str:
        """Why a file is no settings document: arrays or objects nested deeper than ``levels``
        (said inside :meth:`not_a_settings_document`)."""
        return self._("nested more than {levels} levels deep").format(levels=levels)

    def no_place_settings(self: _Speaker) -> str:
        return self._("No place has settings yet.")

    def nothing_changed(self: _Speaker) -> str:
        return self._("Nothing changed.")

    def no_setting_changes(self: _Speaker) -> str:
        """An empty history."""
        return self._("No setting has been changed yet.")

    def settings_changed(self: _Speaker, n: int) -> str:
        return self.ngettext("{n} setting changed.", "{n} settings changed.", n).format(
            n=self.number(n)
        )

    def daily_limit_reached(
        self: _Speaker, limit: int, retry_after: float, *, per_person: bool
    ) -> str:
        """A question over a place's daily quota (``daily_questions``, or the asker's own,
        ``daily_questions_per_person``); the day is UTC's, ``retry_after`` seconds from its
        end."""
        if per_person:
            said = self._(
                "You have reached today's limit of questions here ({limit}). Please ask again "
                "in {wait}, when the day ends (UTC)."
            )
        else:
            said = self._(
                "Today's limit of questions here ({limit}) has been reached. citebot will answer "
                "here again in {wait}, when the day ends (UTC)."
            )
        return said.format(limit=self.number(limit), wait=self.duration(retry_after))
