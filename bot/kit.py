"""The platform kit: the one thing a platform's adapter is handed (the :class:`~bot.adapter.Kit`
its face describes).

Every way in of every platform takes the same steps, run here in one order
(:meth:`PlatformKit.take`), as slack-bolt's middleware runs a request's: heed (whether a message
that names nobody is for citebot: ``auto_answer``, ``follow_ups_without_mention``), claim the
event once across workers (bounded: a platform's deadline to acknowledge must not wait on a slow
store), find the person's words, fence (the allowlists and ``enabled``; a place's admins for
their commands), then act or refuse. Asking refuses by itself where the place may not be
answered in, whatever the adapter did before. Votes, conversations as chains of replies, and
the platform's own tasks (spawned here, drained on shutdown) are the kit's too; a place's
admins' and forget-me's members are :mod:`bot.kit_admin`'s. An adapter only translates: an
event into an :class:`~bot.adapter.Arrival` and a :class:`~bot.answer.Question`, the
platform's API into an :class:`~bot.answer.AnswerSink`, an orphaned answer's record into its
closing note.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Coroutine
from dataclasses import replace
from typing import Any

from bot.adapter import Act, Admitted, Arrival, Gate, Heard, Say, Venue
from bot.answer import AnswerSink, Outcome, Question
from bot.i18n.conversation_words import Reason
from bot.i18n.wording import Wording
from bot.ingress import Ingress
from bot.kit_admin import KitAdmin
from bot.kit_community import CommunityKit
from bot.kit_shared import KitShared
from bot.orphans import OrphanCloser, OrphanHook
from bot.pacing import Pacer
from bot.places import PlaceSettings
from bot.platforms import Platform
from bot.render.ports import Presenter
from bot.render.text import clip
from bot.service import AnswerService
from bot.upstream.events import Turn
from config import PlatformSettings, Settings

__all__ = ["CLAIM_SECONDS", "PlatformKit"]

log = logging.getLogger(__name__)

CLAIM_SECONDS = 1.0
"""The longest a claim may wait for the state store: Discord wants an interaction acknowledged
within 3 s and Slack redelivers after 3 s, so past this the worker answers (the store failing
open, as everywhere)."""


class PlatformKit(KitAdmin, CommunityKit, KitShared):
    """One platform's handle on the answer service, shared by all its adapter's handlers; a
    place's admins' and forget-me's members are :class:`~bot.kit_admin.KitAdmin`'s, its own
    answers and the buttons under answers :class:`~bot.kit_community.CommunityKit`'s, what its
    clients share with the other workers' :class:`~bot.kit_shared.KitShared`'s."""

    def __init__(
        self,
        service: AnswerService,
        platform: Platform[Any],
        *,
        environment: PlatformSettings,
        settings: Settings,
        presenter: Presenter | None = None,
        pacer: Pacer | None = None,
        ingress: Ingress | None = None,
    ) -> None:
        """``presenter`` and ``pacer`` default to the platform's own (tests pass faster
        pacers); ``environment`` is the platform's own variables, ``settings`` the shared;
        ``ingress`` the worker's HTTP way in (its own, alone)."""
        self._service = service
        self._ingress = ingress or Ingress()
        self.platform = platform
        self.name = platform.name
        self.place_ids = platform.place_ids
        self.environment = environment
        self.settings = settings
        self.presenter = presenter or platform.presenter()
        self.pacer = pacer or platform.pacer
        self._tasks: set[asyncio.Task[None]] = set()

    # -- the steps of every way in ---------------------------------------------------------
    async def take(
        self,
        arrival: Arrival,
        act: Act,
        *,
        gate: Gate = "askers",
        refuse: Say | None = None,
        spawn: bool = False,
    ) -> None:
        """Run one way in's steps, in their order, as slack-bolt's middleware runs a request's:
        **heed** (a message naming nobody is for citebot only where the place's settings say:
        :class:`~bot.adapter.Heard`), **claim** (once across workers and deliveries),
        **words** (the person's language, else the place's), **fence** (``gate``: the
        allowlists, then the place's ``enabled``, for a question; the platform's admins for
        their commands; nobody for a person's forget-me), then **act**, or **refuse**:
        ``refuse`` says why where the person reads it (a message that named nobody is left
        alone). ``spawn``: the steps run as a task that shutdown drains (a listener that must
        return at once: an event acknowledged already, a reader of updates).

        Heeding comes before the claim: it reads the place's settings (cached) where a claim
        writes to the store, and a message nobody addressed is not worth a write (Slack sends
        one for every message in every channel the app is in)."""
        steps = self._steps(arrival, act, gate=gate, refuse=refuse)
        if spawn:
            self.spawn(steps)
        else:
            await steps

    async def _steps(self, arrival: Arrival, act: Act, *, gate: Gate, refuse: Say | None) -> None:
        settings = await self.settings_at(arrival.venue)
        if gate == "askers" and not _heeds(arrival.heard, settings):
            return
        if arrival.confirm is not None and not await arrival.confirm():
            return
        if not await self._claim(*arrival.keys):
            return
        language = arrival.language
        if callable(language):
            language = await language()
        words = self.wording(language or settings.language)
        refusal = await self._fence(gate, arrival.venue, settings, words)
        if refusal is None:
            await act(Admitted(words=words, settings=settings, language=language))
        elif refuse is not None and (
            gate != "askers" or arrival.heard in (Heard.MENTION, Heard.DIRECT)
        ):
            await refuse(refusal)

    async def _fence(
        self, gate: Gate, place: Venue, settings: PlaceSettings, words: Wording
    ) -> str | None:
        """Why ``gate`` keeps this way in out of ``place``, in ``words``; None to let it in."""
        if gate == "everyone":
            return None
        if gate == "askers":
            return None if self._allowed(place, settings) else words.not_allowed_here()
        if place.server is None or place.direct:
            return (
                words.no_report_here() if gate.duty == "report" else words.no_place_settings_here()
            )
        if (
            self.environment.allowed_servers
            and place.server not in self.environment.allowed_servers
        ):
            return words.not_allowed_here()
        if not await gate.is_admin():
            return words.report_admins_only() if gate.duty == "report" else words.admins_only()
        return None

    def _allowed(self, place: Venue, settings: PlaceSettings) -> bool:
        """Whether citebot may answer in ``place``: inside the platform's allowlists (a
        conversation with the bot alone passes them where the platform says such
        conversations are already fenced: Slack's, inside a workspace), and not turned off
        there by its admins (``enabled``)."""
        return self._inside_fence(place) and settings.enabled

    async def _claim(self, *keys: str) -> bool:
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

    def wording(self, language: str | None) -> Wording:
        """The words for an asker who speaks ``language`` (None: the worker's default), with
        the platform's own words for its threads and channels."""
        return self._service.wording_for(language, self.name)

    async def ask(
        self, question: Question, sink: AnswerSink, *, max_messages: int | None = None
    ) -> Outcome | None:
        """Answer ``question`` into ``sink`` (see :meth:`AnswerService.ask`), as the settings
        of the place it was asked in say (the disclaimer left to a platform that shows it
        apart: :attr:`Platform.disclaimer_apart`). Where the place may not be answered in
        (the allowlists, ``enabled``) the kit refuses by itself, whatever the adapter checked
        before; the service refuses past a limit or a budget. ``max_messages``: where the
        platform lets this answer take fewer messages than ``MAX_ANSWER_MESSAGES`` (Discord's
        five followups where the bot is not a member), the answer stops there with a note."""
        where = Venue(
            server=question.server_id, channel=question.channel_id, direct=question.direct
        )
        place = await self.settings_at(where)
        if not self._allowed(where, place):
            words = self.wording(question.language or place.language)
            await self.refuse(sink, words.not_allowed_here())
            return None
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
    async def serving(self, orphans: OrphanHook) -> AsyncIterator[None]:
        """While the platform's client is open: close the answers other workers of this
        platform left when they died (the core decides each one's note, ``orphans`` writes
        it), and on the way out drain this platform's answers."""
        closer = OrphanCloser(orphans, presenter=self.presenter, wording_for=self.wording)
        async with self._service.inflight.closing(self.name, closer):
            try:
                yield
            finally:
                await self.drain()


def _heeds(heard: Heard, settings: PlaceSettings) -> bool:
    """Whether a message reached citebot as ``heard`` is for it where ``settings`` apply: the
    one reading of ``follow_ups_without_mention`` and ``auto_answer`` for every platform."""
    if heard is Heard.REPLY:
        return settings.follow_ups_without_mention
    if heard is Heard.POST:
        return settings.auto_answer
    return True
