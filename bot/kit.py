"""The platform kit: the one thing a platform's adapter is handed.

Every way in of every platform takes the same steps, written here once: claim the event once
across workers (bounded: a platform's deadline to acknowledge must not wait on a slow store),
ask whether the place is allowed, find the asker's words, ask or refuse, record a vote, follow a
chain of replies to its conversation; and the platform's own tasks are spawned here and drained
on shutdown. An adapter only translates: an
event into a :class:`~bot.answer.Question` and a :class:`Venue`, the platform's API into an
:class:`~bot.answer.AnswerSink`, an orphaned answer's record into its closing note.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Coroutine, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from bot.answer import AnswerSink, Outcome, Question
from bot.i18n.conversation_words import Reason
from bot.i18n.wording import Wording
from bot.inflight import Closer
from bot.kit_community import CommunityKit
from bot.ops.report import Report, build_report
from bot.pacing import Pacer
from bot.places import Place, PlaceSettings, SettingRefused
from bot.platforms import Platform
from bot.render.ports import Presenter
from bot.render.text import clip
from bot.service import AnswerService, ForgetTooSoon
from bot.state import SettingChange, StateUnavailable
from bot.state.coordination import Coordination
from bot.upstream.events import Turn
from config import PlatformSettings, Settings

__all__ = ["CLAIM_SECONDS", "FORGET_RETRIES", "ForgetTooSoon", "PlatformKit", "Venue"]

log = logging.getLogger(__name__)

CLAIM_SECONDS = 1.0
"""The longest a claim may wait for the state store: Discord wants an interaction acknowledged
within 3 s and Slack redelivers after 3 s, so past this the worker answers (the store failing
open, as everywhere)."""

FORGET_RETRIES = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
"""Seconds between tries to delete a removed place's data while the store does not answer
(about a minute in all)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Venue:
    """Where a question is asked or an admin acts, as the allowlists fence it (a direct
    conversation apart); the settings store names the same spot a :class:`bot.places.Place`."""

    server: str | None = None
    """The Discord server, Slack workspace or Telegram group; None in a direct conversation
    outside any (a Discord DM)."""
    channel: str | None = None
    """The channel; a thread or forum post is judged by its parent."""
    direct: bool = False
    """A conversation with the bot alone (a DM, a Telegram private chat)."""


class PlatformKit(CommunityKit):
    """One platform's handle on the answer service, shared by all its adapter's handlers; its
    places' own answers and the buttons under answers are :class:`CommunityKit`'s."""

    def __init__(
        self,
        service: AnswerService,
        platform: Platform[Any],
        *,
        environment: PlatformSettings,
        settings: Settings,
        presenter: Presenter | None = None,
        pacer: Pacer | None = None,
    ) -> None:
        """``presenter`` and ``pacer`` default to the platform's own (tests pass faster
        pacers); ``environment`` is the platform's own variables, ``settings`` the shared."""
        self._service = service
        self.platform = platform
        self.name = platform.name
        self.environment = environment
        self.settings = settings
        self.presenter = presenter or platform.presenter()
        self.pacer = pacer or platform.pacer
        self._tasks: set[asyncio.Task[None]] = set()

    # -- the steps of every way in ---------------------------------------------------------
    async def claim(self, *keys: str) -> bool:
        """Whether this worker is the one to act on an event: the first, across every worker
        and delivery, to claim each of ``keys`` (a platform's ids for it). Another worker's
        claim is dropped with a counter; a store slower than :data:`CLAIM_SECONDS` is not
        waited for."""
        state = self._service.state
        try:
            async with asyncio.timeout(CLAIM_SECONDS):
                for key in keys:
                    if not await state.first_time(f"{self.name}:{key}"):
                        self._service.metrics.dedup_hits.labels(self.name).inc()
                        log.info("dropped a %s delivery already taken (%s)", self.name, key)
                        return False
        except TimeoutError:
            log.warning("the state store did not answer a claim in time; answering anyway")
        return True

    async def refusal(self, place: Venue, language: str | None) -> str | None:
        """The words that refuse a question asked in ``place`` (in ``language``), or None when
        citebot may answer there: the one authorization check of every way in. The platform's
        allowlists are the fence (a conversation with the bot alone passes it where the
        platform says such conversations are already fenced: Slack's, inside a workspace);
        inside it, the place's admins may have turned citebot off (``enabled``)."""
        settings = await self.settings_at(place)
        if self._inside_fence(place) and settings.enabled:
            return None
        return self.wording(language or settings.language).not_allowed_here()

    async def settings_at(self, place: Venue) -> PlaceSettings:
        """The settings where ``place`` is: its channel's over its server's over the
        environment (read through a one-second cache). A store slower than
        :data:`CLAIM_SECONDS` is not waited for (a platform's deadline to acknowledge counts
        the claim and this read): the environment's settings apply."""
        try:
            async with asyncio.timeout(CLAIM_SECONDS):
                return await self._service.place_settings(self.name, place.server, place.channel)
        except TimeoutError:
            log.warning("the state store did not give a place's settings in time")
            return await self._service.place_settings(self.name, None, None)

    def _inside_fence(self, place: Venue) -> bool:
        if place.direct and not self.platform.direct_messages_fenced:
            return True
        servers = self.environment.allowed_servers
        channels = self.environment.allowed_channels
        return (not servers or place.server in servers) and (
            not channels or place.channel in channels
        )

    async def words(self, place: Venue, language: str | None) -> Wording:
        """The words for an asker in ``place``: their own ``language``, else the place's."""
        return self.wording(language or (await self.settings_at(place)).language)

    async def change_setting(
        self, place: Venue, key: str, value: str | None, *, by: str
    ) -> SettingChange | None:
        """An admin sets ``key`` to ``value`` where ``place`` is (its channel, or with
        ``place.channel`` None its server), or with ``value`` None lets it follow the server
        or the environment again; the change, None when nothing changed. Whether ``by`` may
        is the platform's to check first (its own admins). Raises
        :class:`~bot.places.SettingRefused` (``.said(wording)`` in the admin's language) for a
        key or value that is not one, and :class:`~bot.state.StateUnavailable` when the store
        cannot save it (:meth:`Wording.could_not_save`); nothing changes then."""
        where = str(self._settings_place(place))
        if value is None:
            return await self._service.places.unset(where, key, by=by)
        return await self._service.places.set(where, key, value, by=by)

    async def setting_history(self, place: Venue) -> list[SettingChange]:
        """The changes made to ``place``'s settings (its channel's, or its server's), oldest
        first."""
        return await self._service.places.history(str(self._settings_place(place)))

    def _settings_place(self, place: Venue) -> Place:
        if place.server is None:
            raise SettingRefused(lambda wording: wording.no_place_settings_here())
        return Place(self.name, place.server, place.channel)

    def wording(self, language: str | None) -> Wording:
        """The words for an asker who speaks ``language`` (None: the worker's default), with
        the platform's own words for its threads and channels."""
        return self._service.wording_for(language, self.name)

    async def ask(
        self, question: Question, sink: AnswerSink, *, max_messages: int | None = None
    ) -> Outcome | None:
        """Answer ``question`` into ``sink`` (see :meth:`AnswerService.ask`), as the settings
        of the place it was asked in say (the disclaimer left to a platform that shows it apart:
        :attr:`Platform.disclaimer_apart`). ``max_messages``: where the platform lets this
        answer take fewer messages than ``MAX_ANSWER_MESSAGES`` (Discord's five followups where
        the bot is not a member), the answer stops there with a note."""
        place = await self.settings_at(
            Venue(server=question.server_id, channel=question.channel_id)
        )
        if self.platform.disclaimer_apart:
            place = replace(place, disclaimer=None)
        return await self._service.ask(
            question,
            presenter=self.presenter,
            sink=sink,
            pacer=self.pacer,
            place=place,
            max_messages=max_messages,
        )

    def claim_question(self, words: Wording, claim: str) -> str:
        """What is asked upstream to check ``claim`` (Check with sources, /check), the claim
        cut so the whole question keeps ``MAX_QUESTION_LENGTH``."""
        wrapper = len(words.claim_question("", words.labels.quoted))
        room = max(1, self.settings.max_question_length - wrapper)
        return words.claim_question(clip(claim, room), words.labels.quoted)

    async def refuse(self, sink: AnswerSink, words: str) -> None:
        """Say ``words`` instead of an answer."""
        await self._service.refuse(sink, self.presenter, words)

    async def vote(
        self,
        *,
        answer_key: str,
        user_id: str,
        value: str,
        reason: Reason | None = None,
        comment: str | None = None,
    ) -> bool:
        """Keep one person's 👍/👎 on an answer (a 👎 with why, when they said: one of
        :data:`~bot.i18n.conversation_words.REASONS` and their words); True when it changed
        their vote."""
        return await self._service.records.vote(
            platform=self.name,
            answer_key=answer_key,
            user_id=user_id,
            value=value,
            reason=reason,
            comment=comment,
        )

    async def report(self, place: Venue, since: timedelta) -> Report:
        """What was asked in the server, workspace or group where ``place`` is (all its
        channels) over the last ``since``: a neutral value the platform renders with
        :attr:`Wording.report_labels`. Who may read it (the place's admins) is the platform's
        to check first. Raises :class:`~bot.places.SettingRefused` in a conversation outside
        any server and :class:`~bot.state.StateUnavailable` when the store cannot be read."""
        server = self._settings_place(place).server
        until = time.time()
        return await build_report(
            self._service.state,
            since=until - since.total_seconds(),
            until=until,
            platform=self.name,
            server=server,
        )

    async def forget_person(self, user_id: str) -> int:
        """Delete everything kept about ``user_id`` on this platform (their forget-me: say
        :meth:`Wording.forgot_you`); how many things went. Anyone may ask it for themselves,
        a few times an hour: raises :class:`ForgetTooSoon` past that
        (:meth:`Wording.forget_me_too_soon`), and :class:`~bot.state.StateUnavailable` when
        the store cannot; either way nothing was deleted (:meth:`Wording.could_not_forget`)."""
        return await self._service.forget_person(self.name, user_id)

    async def forget_place(self, server: str) -> int:
        """Delete everything kept about ``server`` (a server, workspace or group) and its
        channels, once the bot has been removed from it; how many things went. Raises
        :class:`~bot.state.StateUnavailable` when the store cannot."""
        return await self._service.forget_place(self.name, server)

    async def forget_removed(self, server: str, retries: Sequence[float] = FORGET_RETRIES) -> None:
        """The bot was removed from ``server``: :meth:`forget_place`, tried again after each of
        ``retries`` seconds while the store does not answer (and the worker is not stopping),
        then logged as an error naming the place."""
        for wait in (*retries, None):
            try:
                forgotten = await self.forget_place(server)
            except StateUnavailable:
                if wait is None or not self.accepting:
                    break
                log.warning(
                    "%s place %s removed citebot; deleting its data again in %ss",
                    self.name,
                    server,
                    wait,
                )
                await asyncio.sleep(wait)
            else:
                log.info(
                    "%s place %s removed citebot: %d things kept deleted",
                    self.name,
                    server,
                    forgotten,
                )
                return
        log.error(
            "%s place %s removed citebot, but the state store did not answer: its data stays "
            "until it expires (the answer log after ANSWER_LOG_DAYS; its settings do not)",
            self.name,
            server,
        )

    async def remembered(self, question: Question) -> tuple[Turn, ...]:
        """The turns remembered for the question's thread (oldest first)."""
        return await self._service.history(question)

    async def join_thread(
        self, message: str, thread: str, *, person: str, server: str | None
    ) -> None:
        """Note that ``message`` (the platform's id of a message citebot posted) belongs to
        ``thread``, for as long as conversations are remembered: where a conversation is a
        chain of replies rather than a thread (Telegram), a reply to that message continues
        the conversation. The note is ``person``'s (who asked) and ``server``'s, so that their
        forget-me and the place's removal find it. A store that fails forgets it: the reply
        then starts a new one."""
        key = self._thread_key(message)
        ttl = self._service.limits.memory_ttl
        await self._service.state.cache(key, thread, ttl=ttl)
        await self._service.state.note_belongings(
            self.name, person=person, server=server, notes=[key], ttl=ttl
        )

    async def thread_of(self, message: str) -> str | None:
        """The thread :meth:`join_thread` noted for ``message``; None when none was (or it
        was forgotten)."""
        return await self._service.state.cached(self._thread_key(message))

    def _thread_key(self, message: str) -> str:
        return f"thread-of:{self.name}:{message}"

    @property
    def history_turns(self) -> int:
        """How many earlier turns a follow-up is sent with."""
        return self._service.limits.history_turns

    # -- what the platform's clients share ------------------------------------------------
    @property
    def accepting(self) -> bool:
        """False once the worker is shutting down: leases are handed over then."""
        return self._service.accepting

    @property
    def coordination(self) -> Coordination | None:
        """The workers' shared Redis (leases, rate windows); None when this worker is alone."""
        return self._service.coordination

    def rate_limited(self) -> None:
        """Count a 429 the platform answered."""
        self._service.metrics.platform_429s.labels(self.name).inc()

    # -- the platform's tasks --------------------------------------------------------------
    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` (an answer a listener hands off after acknowledging its event) as a
        task that shutdown waits for."""
        task = asyncio.create_task(work, name=f"citebot-{self.name}-answer")
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a %s answer failed", self.name, exc_info=task.exception())

    async def drain(self) -> None:
        """Stop taking questions; let the answers in flight finish for
        ``SHUTDOWN_GRACE_SECONDS``, then interrupt them (each closes with a note)."""
        grace = self.settings.shutdown_grace_seconds
        if self._tasks:
            _done, late = await asyncio.wait(set(self._tasks), timeout=grace)
            for task in late:
                task.cancel()
            if late:
                await asyncio.wait(late, timeout=5)
        await self._service.drain(grace)

    @contextlib.asynccontextmanager
    async def serving(self, closer: Closer) -> AsyncIterator[None]:
        """While the platform's client is open: close the answers other workers of this
        platform left when they died (``closer`` writes each one's note), and on the way out
        drain this platform's answers."""
        async with self._service.inflight.closing(self.name, closer):
            try:
                yield
            finally:
                await self.drain()
