"""The answer log: what the service keeps of each question, as ``ANSWER_LOG`` allows.

``metadata`` (the default) keeps who asked where, when, in which language, what became of it,
how fast, with which model and provider, its tokens (as the upstream reported them and as
citebot estimated them, apart) and their cost (bot/billing.py), the sources cited with their
quote checks, and
the votes with their reasons; ``questions`` adds the question's words (and a 👎's comment),
``full`` the answer's too; ``off`` keeps nothing. Records go ``ANSWER_LOG_DAYS`` after their
question. Whatever the mode, the store notes which conversations' memory and which votes
belong to whom (ids only), so forget-me and a removed place find them.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Literal, Protocol, runtime_checkable

from bot.answer import Outcome, Question
from bot.billing import Bill
from bot.state import (
    FEEDBACK_TTL,
    MEMORY_TTL,
    LoggedAnswer,
    LoggedSource,
    LoggedVote,
    State,
)
from bot.state.logged import HANDOFF, PERSON
from bot.upstream.trust import TrustedSources
from bot.verify.verdict import Verdict

__all__ = [
    "LOGGED_REFUSALS",
    "MAX_KEPT_ANSWER",
    "MAX_SOURCES",
    "AnswerLog",
    "LogEntry",
    "Mode",
    "VoteKeyed",
    "seconds_kept",
]

Mode = Literal["full", "questions", "metadata", "off"]

LOGGED_REFUSALS = frozenset(
    {
        "rate_limit",
        "too_long",
        "daily_questions",
        "daily_questions_per_person",
        "daily_tokens",
        "daily_cost",
    }
)
"""The refusals the answer log keeps: a person who asked and was turned away for what they
asked. Not kept: an empty question (nothing was asked) and a worker restarting (the worker's
state, not the place's); a place that turned citebot off, or that the allowlists leave out, is
refused before the service (``PlatformKit.refusal``) and leaves no record there."""

MAX_SOURCES = 50
"""Sources kept per record: a runaway answer's hundreds would each cost a record's worth."""
MAX_KEPT_ANSWER = 20_000
"""Characters of an answer's text kept under ``full`` (a longer one is cut with "…")."""
MAX_KEPT_COMMENT = 1000
"""Characters of a 👎's comment kept."""


@runtime_checkable
class VoteKeyed(Protocol):
    """A sink that can say which key the vote buttons on its answer send to
    :meth:`bot.kit.PlatformKit.vote` (``answer_key``), once the answer is shown: the log links
    a vote to its answer by it. A platform whose sink cannot say has its votes kept, unlinked."""

    def vote_key(self) -> str | None: ...


class LogEntry:
    """One question's record in the making: its id and time from the moment it was asked, and
    the quote checks that land once it is written."""

    def __init__(self, log: AnswerLog, question: Question, at: float) -> None:
        self._log = log
        self.question = question
        self.id = secrets.token_hex(8)
        self.at = at
        self.written = asyncio.Event()

    async def verdicts(self, verdicts: Sequence[Verdict]) -> None:
        """The quote checks of the answer's cards, in order (the answer's first sources)."""
        if not self._log.keeps:
            return
        try:
            async with asyncio.timeout(self._log.verdict_wait):
                await self.written.wait()
        except TimeoutError:
            return  # never written (the store failed): nothing to complete
        await self._log.state.log_verdicts(self.id, [verdict.value for verdict in verdicts])


class AnswerLog:
    """What a worker's service writes to the answer log, in ``state`` (the fail-open store)."""

    def __init__(
        self,
        state: State,
        *,
        mode: Mode = "metadata",
        days: int = 30,
        memory_ttl: float = MEMORY_TTL,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.state = state
        self.mode = mode
        self.retention = days * 86400.0
        self._memory_ttl = memory_ttl
        self._clock = clock
        self.verdict_wait = 30.0
        """Seconds a quote check waits for its record to be written before giving up."""

    @property
    def keeps(self) -> bool:
        return self.mode != "off"

    def begin(self, question: Question) -> LogEntry:
        """A question has come: its record's id and time."""
        return LogEntry(self, question, self._clock())

    async def refused(self, entry: LogEntry, refused_by: str) -> None:
        """The question was refused before it was asked (``refused_by`` says why)."""
        if self.keeps:
            await self._write(entry, replace(self._record(entry, "refused"), refused_by=refused_by))

    async def answered(
        self,
        entry: LogEntry,
        outcome: Outcome,
        *,
        bill: Bill,
        vote_key: str | None,
        thread: str | None,
        trusted: TrustedSources | None = None,
    ) -> None:
        """What became of an asked question (``entry.question`` with the turns sent with it);
        ``thread`` is its conversation's memory key, ``vote_key`` where its votes arrive;
        ``trusted``: the place's trusted sources, each source kept with whether it is one."""
        question = entry.question
        await self.state.note_belongings(
            question.platform,
            person=question.user_id,
            server=question.server_id,
            threads=[thread] if thread else [],
            votes=[vote_key] if vote_key else [],
            ttl=max(self._memory_ttl, FEEDBACK_TTL, self.retention),
        )
        rendered = outcome.rendered
        sources = tuple(
            LoggedSource(
                title=citation.title,
                url=citation.source_url,
                trusted=None if trusted is None else trusted.covers(citation.source_url),
            )
            for citation in (rendered.citations if rendered else ())[:MAX_SOURCES]
        )
        if not self.keeps:
            return
        record = replace(
            self._record(entry, outcome.status),
            first_text_seconds=seconds_kept(outcome.first_text_seconds),
            total_seconds=seconds_kept(outcome.total_seconds),
            model=outcome.model,
            provider=bill.provider,
            tokens=bill.total,
            reported=bill.reported,
            estimated=bill.estimated,
            cost=bill.cost,
            cost_reported=bill.cost_reported,
            answer=_clipped(outcome.text, MAX_KEPT_ANSWER) if self.mode == "full" else None,
            sources=sources,
            vote_key=vote_key,
            own_answer=outcome.own_answer,
        )
        await self._write(entry, record)

    def _record(self, entry: LogEntry, outcome: str) -> LoggedAnswer:
        question = entry.question
        return LoggedAnswer(
            id=entry.id,
            at=entry.at,
            platform=question.platform,
            server=question.server_id,
            channel=question.channel_id,
            asker=question.user_id,
            language=question.language,
            outcome=outcome,
            question=question.text if self.mode in ("full", "questions") else None,
        )

    async def _write(self, entry: LogEntry, record: LoggedAnswer) -> None:
        await self.state.log_answer(record, retention=self.retention)
        entry.written.set()

    async def vote(
        self,
        platform: str,
        *,
        answer_key: str,
        user_id: str,
        value: str,
        reason: str | None,
        comment: str | None,
    ) -> LoggedAnswer | None:
        """Put one person's vote on its answer's record (the comment where the mode keeps the
        person's words); the record as it was, None when no record has that answer. The vote
        is noted as the voter's, in the answer's server when the record says which."""
        kept = _clipped(comment.strip(), MAX_KEPT_COMMENT) if comment and comment.strip() else None
        record = None
        if self.keeps:
            record = await self.state.log_vote(
                answer_key,
                LoggedVote(
                    user=user_id,
                    value=value,
                    at=self._clock(),
                    reason=reason,
                    comment=kept if self.mode in ("full", "questions") else None,
                ),
            )
        await self.state.note_belongings(
            platform,
            person=user_id,
            server=record.server if record is not None else None,
            votes=[answer_key],
            ttl=max(FEEDBACK_TTL, self.retention),
        )
        return record

    async def handed_off(self, answer_key: str) -> LoggedAnswer | None:
        """A person was asked about the answer whose votes arrive under ``answer_key`` ("Ask
        a person"): kept on its record, beside its votes; the record as it was, None when
        there is none."""
        if not self.keeps:
            return None
        handoff = LoggedVote(user=HANDOFF, value=PERSON, at=self._clock())
        return await self.state.log_vote(answer_key, handoff)


def _clipped(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def seconds_kept(value: float | None) -> float | None:
    """A duration as the log line and the record keep it: to the millisecond."""
    return None if value is None else round(value, 3)
