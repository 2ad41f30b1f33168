"""What a place's admins make citebot there, as the platform kit offers it: their own answers
to keep, and what the buttons they set up do when an asker presses them ("Ask the sources"
under an own answer, "Ask a person" where ``handoff`` names someone).

A button carries only what it does; the platform turns the message it is on into the answer's
key (its votes' key), and the kit finds the question under it (:mod:`bot.tickets`). Only the
person who asked may press either, and each acts once per answer across every worker: a
second press, another worker's delivery of the same press, anyone else's press is told why
nothing happens, and nothing does. Every decision is here, once; a platform only renders it.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Protocol

from bot.adapter import Handoff, Venue
from bot.answer import Question
from bot.i18n.wording import Wording
from bot.places import Place, PlaceSettings
from bot.places.own import OwnAnswer, new_own_answer
from bot.service import AnswerService

__all__ = ["CommunityKit"]

log = logging.getLogger(__name__)


class _Host(Protocol):
    """What the kit (:class:`bot.kit.PlatformKit`) gives this part of it."""

    @property
    def name(self) -> str: ...

    @property
    def _service(self) -> AnswerService: ...

    def wording(self, language: str | None) -> Wording: ...

    async def settings_at(self, place: Venue) -> PlaceSettings: ...

    def _settings_place(self, place: Venue) -> Place: ...


class CommunityKit:
    """Mixed into :class:`bot.kit.PlatformKit`."""

    __slots__ = ()

    # -- own answers ------------------------------------------------------------------------
    async def own_answers(self: _Host, place: Venue) -> list[OwnAnswer]:
        """The own answers kept where ``place`` is (its channel's, or with ``place.channel``
        None its server's), oldest first. Raises :class:`~bot.places.SettingRefused` outside
        any server and :class:`~bot.state.StateUnavailable` when the store cannot be read."""
        return await self._service.places.own_answers(self._settings_place(place))

    async def add_own_answer(
        self: _Host,
        place: Venue,
        question: str,
        answer: str,
        *,
        by: str,
        name: str,
        language: str | None,
    ) -> OwnAnswer:
        """An admin keeps ``answer`` to ``question`` where ``place`` is (``by`` their id,
        ``name`` as the answer shows them, ``language`` theirs: None, the place's). Whether
        ``by`` may is the platform's to check first. Raises
        :class:`~bot.places.SettingRefused` (``.said(wording)``) for a question or answer that
        is not one, or a place that keeps as many as it may; nothing changes then."""
        where = self._settings_place(place)
        written = language or (await self.settings_at(place)).language
        own = new_own_answer(question, answer, by=by, name=name, language=written)
        return await self._service.places.add_own_answer(where, own, by=by)

    async def remove_own_answer(self: _Host, place: Venue, answer: str, *, by: str) -> OwnAnswer:
        """An admin removes the own answer ``answer`` (its ID) where ``place`` is; the answer
        that went. Raises :class:`~bot.places.SettingRefused` for an ID it does not keep."""
        where = self._settings_place(place)
        return await self._service.places.remove_own_answer(where, answer, by=by)

    # -- the buttons under an answer ----------------------------------------------------------
    async def sources_asked(
        self: _Host, *, answer_key: str, user_id: str, language: str | None
    ) -> Question | str:
        """ "Ask the sources" pressed under the own answer ``answer_key`` by ``user_id``: the
        question to ask the sources (ask it into a reply of that answer), or the words that
        say why not (in ``language``: not theirs, no longer known, already asked)."""
        question, refusal = await _pressed(self, "ask_sources", answer_key, user_id, language)
        if question is None:
            return refusal
        return replace(question, own_answers=False)

    async def person_asked(
        self: _Host, *, answer_key: str, user_id: str, language: str | None
    ) -> Handoff | str:
        """ "Ask a person" pressed under the answer ``answer_key`` by ``user_id``: the one
        message to post in its thread (kept in the answer log, and counted), or the words
        that say why not (not theirs, no longer known, already asked, or nobody is set up to
        be asked there any more)."""
        question, refusal = await _pressed(self, "ask_person", answer_key, user_id, language)
        if question is None:
            return refusal
        service = self._service
        settings = await service.place_settings(self.name, question.server_id, question.channel_id)
        if settings.handoff is None:
            return self.wording(language).handoff_off()
        await service.answer_log.handed_off(answer_key)
        service.metrics.handoffs.labels(self.name).inc()
        log.info("%s: a person was asked about answer %s", self.name, answer_key)
        words = self.wording(settings.language)
        return Handoff(target=settings.handoff, question=question, words=words)


async def _pressed(
    kit: _Host, action: str, answer_key: str, user_id: str, language: str | None
) -> tuple[Question | None, str]:
    """The question under the answer a button was pressed under, if the press may act: by its
    asker, the first time; else None and the words that say why not."""
    words = kit.wording(language)
    tickets = kit._service.tickets
    question = await tickets.question(kit.name, answer_key)
    if question is None:
        return None, words.button_expired()
    if question.user_id != user_id:
        return None, words.not_your_button()
    if not await tickets.claim(action, kit.name, answer_key):
        return None, words.handoff_already() if action == "ask_person" else words.sources_already()
    return question, ""
