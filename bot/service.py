"""The answer service: one question's whole life, the same for every platform.

Around :func:`bot.answer.answer_question` it keeps the rules a community relies on: a question
too long or asked too often gets a clear reply, one thread answers one question at a time, a
worker streams at most ``max_in_flight`` answers with a visible queue behind them, the
conversation is remembered per thread, every answer leaves one JSON log line and a record in the
answer log, its tokens counting on its place's daily budget (:mod:`bot.answer_records`), and on
shutdown new questions are turned away while those in flight finish (or close with a note).

Whatever fails, the person who asked sees an answer or a worded message: the state store fails
open (:class:`~bot.state.failopen.FailOpenState`), and anything else that escapes the answer
before its final write ends it with a "please try again" instead of a silent "thinking…".
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from bot.admission import Admission, AdmissionClosed
from bot.answer import (
    CLOSE_SECONDS,
    AnswerSink,
    Outcome,
    Question,
    WatchedSink,
    answer_question,
)
from bot.answer_records import AnswerRecords
from bot.answerlog import LOGGED_REFUSALS, AnswerLog, LogEntry, VoteKeyed
from bot.billing import Tariff
from bot.connect import Provider
from bot.gate import Limits, QuestionGate
from bot.i18n.wording import WORDING, Wording
from bot.inflight import InFlight
from bot.ops.metrics import Metrics
from bot.own_answers import OwnAnswerClient, answer_buttons, own_answer_for, own_mark
from bot.pacing import Pacer
from bot.places import Places, PlaceSettings
from bot.render.ports import Presenter
from bot.state import ForgetTooSoon, State
from bot.state.coordination import Coordination
from bot.tickets import Tickets
from bot.upstream.client import AnswerClient, Answerer
from bot.upstream.errors import UpstreamDown
from bot.upstream.events import Turn
from config import Settings

if TYPE_CHECKING:
    from bot.verify.checker import QuoteChecker

log = logging.getLogger("citebot.answers")

__all__ = ["FORGET_LIMIT", "AnswerService", "ForgetTooSoon", "Limits"]

FORGET_LIMIT = (3, 3600.0)
"""At most 3 forget-me's a person an hour on a platform: the first deletes everything, and a
button pressed in a loop would otherwise cost the store a forget each time."""


UNKNOWN_TARIFF = Tariff(provider="upstream")
"""An upstream whose bill nobody said: no overhead, no prices."""


class AnswerService:
    """Shared by every adapter of a worker; adapters call :meth:`ask` from their handlers."""

    def __init__(
        self,
        *,
        client: AnswerClient,
        state: State,
        admission: Admission,
        limits: Limits | None = None,
        metrics: Metrics | None = None,
        wording: Wording = WORDING,
        inflight: InFlight | None = None,
        checker: QuoteChecker | None = None,
        coordination: Coordination | None = None,
        places: Places | None = None,
        answer_log: AnswerLog | None = None,
        tariff: Tariff = UNKNOWN_TARIFF,
        providers: Mapping[str, Provider] | None = None,
    ) -> None:
        """``checker``: the process's quote checks of posted cards (None: QUOTE_CHECK=off);
        ``coordination``: the workers' shared Redis (None: this worker is alone), for the
        platforms' shard leases and rate windows; ``places``: each place's settings (None:
        the environment's everywhere); ``answer_log``: what is kept of each answer (None:
        ``ANSWER_LOG``'s defaults); ``tariff``: how the upstream bills an answer (the
        settings' :func:`bot.billing.tariff`); ``limits``: the worker's (None: citebot's
        defaults)."""
        limits = limits or Limits()
        self.client = client
        self.checker = checker
        self.state = state
        self.admission = admission
        self.limits = limits
        self.metrics = metrics or Metrics(providers=(tariff.provider,))
        self.wording = wording
        self.inflight = inflight or InFlight(None)
        """Every answer's record, so that another worker closes it if this one dies."""
        self.coordination = coordination
        self.places = places or Places(state, defaults=Settings.model_construct())
        """Each place's settings; without ``places`` (tests), over citebot's own defaults."""
        self.answer_log = answer_log or AnswerLog(state, memory_ttl=limits.memory_ttl)
        self.records = AnswerRecords(
            state=state,
            metrics=self.metrics,
            places=self.places,
            answer_log=self.answer_log,
            conversation_key=self.conversation_key,
            tariff=tariff,
        )
        """What each answer leaves (counts, its log line, tokens, its record) and its votes."""
        self.providers = dict(providers or {})
        """The operator's ``UPSTREAM_PROFILES``, by name: a place's ``provider`` picks one."""
        self.gate = QuestionGate(
            limits=limits, state=state, places=self.places, metrics=self.metrics
        )
        """Why a question is not answered (too long, too often, past its place's quotas)."""
        self.tickets = Tickets(state, ttl=limits.memory_ttl)
        """The questions under answers whose buttons may still be pressed."""
        self._tasks: set[asyncio.Task[object]] = set()
        self._accepting = True

    @property
    def accepting(self) -> bool:
        return self._accepting

    @property
    def in_flight(self) -> int:
        return len(self._tasks)

    @staticmethod
    def conversation_key(question: Question) -> str | None:
        if question.thread_id is None:
            return None
        return f"{question.platform}:{question.channel_id}:{question.thread_id}"

    async def history(self, question: Question) -> tuple[Turn, ...]:
        key = self.conversation_key(question)
        if key is None or not self.limits.history_turns:
            return ()
        return await self.state.recent(key, self.limits.history_turns * 2)

    async def place_settings(
        self, platform: str, server: str | None, channel: str | None
    ) -> PlaceSettings:
        """The settings of a place (``server`` None: a conversation outside any server, where
        the environment's apply)."""
        return await self.places.effective(platform, server, channel)

    def wording_for(self, language: str | None, platform: str | None = None) -> Wording:
        """The words for a person who speaks ``language`` (None: this worker's default), with
        ``platform``'s own words for its threads and channels."""
        return Wording(language=language or self.wording.language, platform=platform)

    def provider_for(self, place: PlaceSettings | None) -> Provider | None:
        """The upstream that answers where ``place`` is: its ``provider``, else the default;
        None for a provider the operator no longer configures (its questions must not go
        to another upstream than the one its admins chose)."""
        if place is None or place.provider is None:
            return Provider(self.client, self.records.tariff)
        return self.providers.get(place.provider)

    async def refuse(self, sink: AnswerSink, presenter: Presenter, words: str) -> None:
        """Answer with one short message instead of an answer."""
        await sink.show((presenter.notice(words),), final=True)

    async def ask(
        self,
        question: Question,
        *,
        presenter: Presenter,
        sink: AnswerSink,
        pacer: Pacer,
        place: PlaceSettings | None = None,
        max_messages: int | None = None,
    ) -> Outcome | None:
        """Answer ``question`` into ``sink``, or tell the user why not; None when refused.

        ``question.history`` is used when the adapter found one (e.g. Slack's thread replies);
        otherwise the remembered turns of the thread are sent. ``place``: the settings where it
        was asked (its language for an asker whose own is unknown, its daily quotas, quote
        checks and disclaimer). ``max_messages``: fewer messages than the worker's
        ``MAX_ANSWER_MESSAGES`` for this answer (the platform's limit where it is asked). Never
        raises but on cancellation: a failure before the answer's final write shows a "please
        try again".
        """
        if place is not None and question.language is None and place.set_in["language"]:
            # an admin's choice for the place: citebot's words, and the upstream asked for it
            # (the environment's alone asks the upstream nothing: it answers as it was asked)
            question = replace(question, language=place.language, locale=None)
        wording = self.wording_for(question.language, question.platform)
        shown: list[bool] = []  # the final write landed: a failure after it replaces nothing

        def after_show(final: bool, landed: bool) -> None:
            if final and landed:
                shown.append(True)

        started = time.monotonic()
        entry = self.answer_log.begin(question)
        try:
            return await self._ask(
                question,
                entry,
                wording,
                presenter=presenter,
                sink=sink,
                pacer=pacer,
                place=place,
                max_messages=_fewest(self.limits.max_answer_messages, max_messages),
                after_show=after_show,
            )
        except Exception as error:
            log.error("an answer failed: %s", type(error).__name__, exc_info=error)
            if not shown:
                with contextlib.suppress(Exception):
                    await self.refuse(sink, presenter, wording.try_again())
            outcome = Outcome(status="failed", text="", total_seconds=time.monotonic() - started)
            await self.records.answered(entry, outcome, place=place)
            return outcome

    async def _ask(
        self,
        question: Question,
        entry: LogEntry,
        wording: Wording,
        *,
        presenter: Presenter,
        sink: AnswerSink,
        pacer: Pacer,
        place: PlaceSettings | None,
        max_messages: int | None,
        after_show: Callable[[bool, bool], None],
    ) -> Outcome | None:
        """:meth:`ask`'s work; notices go to ``sink`` itself, the answer through the sink the
        in-flight record tracks, its writes told to ``after_show``."""
        notices = sink
        own = await own_answer_for(self.places, question) if place is not None else None
        refusal = (
            ("restarting", wording.restarting())
            if not self._accepting
            else await self.gate.refusal(question, wording, place, upstream=own is None)
        )
        if refusal is not None:
            why, words = refusal
            await self.refuse(notices, presenter, words)
            if why in LOGGED_REFUSALS:
                self.metrics.refusals.labels(question.platform, why).inc()
                await self.answer_log.refused(entry, why)
            return None
        provider = self.provider_for(place)
        client: Answerer
        if own is not None:
            client, tariff = OwnAnswerClient(own), None
        elif provider is not None:
            client, tariff = provider.client, provider.tariff
        else:
            assert place is not None
            log.error(
                "%s: provider %r is not in UPSTREAM_PROFILES", question.platform, place.provider
            )
            failed = UpstreamDown(f"no upstream profile named {place.provider!r}")
            await self.refuse(notices, presenter, wording.explain(failed))
            return Outcome(status="failed", text="", error=failed)
        buttons = answer_buttons(wording, place, own=own is not None)
        with self._tracked():
            key = self.conversation_key(question)

            async def queued(position: int) -> None:
                await self.refuse(notices, presenter, wording.queued(position))

            async def thread_busy(position: int) -> None:
                await self.refuse(notices, presenter, wording.after_thread_turn(position))

            started = time.monotonic()
            try:
                lease = (
                    self.state.lease(key, on_wait=thread_busy)
                    if key is not None
                    else contextlib.nullcontext()
                )
                async with (
                    self.inflight.track(question, sink) as tracked,
                    lease,
                    self.admission.slot(on_queued=queued),
                ):
                    if not question.history:
                        question = replace(question, history=await self.history(question))
                    entry.question = question
                    checks = place is None or place.quote_check
                    outcome = await answer_question(
                        question,
                        client=client,
                        presenter=presenter,
                        sink=WatchedSink(tracked, after_show),
                        pacer=pacer,
                        wording=wording,
                        checker=self.checker if checks and own is None else None,
                        max_messages=max_messages,
                        max_cards=self.limits.max_cards,
                        disclaimer=place.disclaimer if place is not None and not own else None,
                        on_verdicts=functools.partial(self.records.checked, entry),
                        closing=own_mark(own, wording) if own else None,
                        buttons=buttons,
                        trusted=place.trusted if place is not None else None,
                    )
                    if own is not None:
                        outcome = replace(outcome, own_answer=own.id)
                    if key is not None and outcome.text.strip():
                        # still holding the thread: the next question in it reads this turn
                        await self.state.append(
                            key,
                            Turn("user", question.text),
                            Turn("assistant", outcome.text),
                            ttl=self.limits.memory_ttl,
                        )
            except AdmissionClosed:
                await self.refuse(notices, presenter, wording.restarting())
                return None
            except asyncio.CancelledError:  # shutdown: the flow closed the answer with a note
                interrupted = Outcome(
                    status="interrupted", text="", total_seconds=time.monotonic() - started
                )
                with contextlib.suppress(Exception):  # a moment at most: the worker is stopping
                    await asyncio.wait_for(
                        self.records.answered(entry, interrupted, place=place), 1.0
                    )
                raise
            await self.records.answered(entry, outcome, place=place, sink=sink, tariff=tariff)
            answer_key = sink.vote_key() if isinstance(sink, VoteKeyed) else None
            if buttons and answer_key is not None and outcome.status == "answered":
                await self.tickets.keep(answer_key, question)
            return outcome

    async def forget_person(self, platform: str, user_id: str) -> int:
        """Delete everything kept about one person of ``platform`` (forget-me); how many
        things went. Raises :class:`ForgetTooSoon` past :data:`FORGET_LIMIT` (its window, under
        a hash of the person's id, is all that is kept afterwards, for an hour at most) and
        :class:`~bot.state.StateUnavailable` when the store cannot."""
        most, seconds = FORGET_LIMIT
        who = hashlib.sha256(f"{platform}:{user_id}".encode()).hexdigest()
        asked = await self.state.hit(f"forget:{who}", limit=most, per_seconds=seconds)
        if not asked.allowed:
            raise ForgetTooSoon(asked.retry_after)
        return await self.state.forget_person(platform, user_id)

    async def forget_place(self, platform: str, server: str) -> int:
        """Delete everything kept about a server, workspace or group and its channels (the
        bot removed from it); how many things went. Raises
        :class:`~bot.state.StateUnavailable` when the store cannot."""
        forgotten = await self.state.forget_place(platform, server)
        self.places.forget(platform, server)
        return forgotten

    @contextlib.contextmanager
    def _tracked(self) -> Iterator[None]:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            yield
        finally:
            self._tasks.discard(task)

    async def drain(self, grace: float) -> None:
        """Stop taking questions; give those in flight ``grace`` seconds, then interrupt them.

        Idempotent. Interrupted answers close their messages with a note (see answer_question),
        for :data:`~bot.answer.CLOSE_SECONDS` at most: this returns within ``grace`` + that.
        """
        self._accepting = False
        self.admission.close()
        pending = set(self._tasks)
        if not pending:
            return
        started = time.monotonic()
        _done, late = await asyncio.wait(pending, timeout=grace)
        for task in late:
            task.cancel()
        if late:
            await asyncio.wait(late, timeout=CLOSE_SECONDS + 0.1)
        log.info(
            "drained %d answers (%d interrupted) in %.1f s",
            len(pending),
            len(late),
            time.monotonic() - started,
        )


def _fewest(*limits: int | None) -> int | None:
    """The tightest of several caps (None: no cap)."""
    return min((limit for limit in limits if limit is not None), default=None)
