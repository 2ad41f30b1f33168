"""What each answer leaves behind, whatever became of it: its counts in the metrics, one JSON
log line, its tokens on its place's daily budget, its record in the answer log with its quote
checks; and the votes on it. Apart from :mod:`bot.service`, which decides an answer's life,
because none of this may change what the asker sees: a store that fails here costs a record."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from bot.answer import AnswerSink, Outcome, Question
from bot.answerlog import AnswerLog, LogEntry, VoteKeyed, seconds_kept
from bot.billing import Tariff, bill
from bot.i18n.conversation_words import REASONS, VOTES, Reason
from bot.ops.metrics import Metrics
from bot.places import Places, PlaceSettings
from bot.state import State
from bot.verify.verdict import Verdict

log = logging.getLogger("citebot.answers")

__all__ = ["AnswerRecords"]


class AnswerRecords:
    """The service's bookkeeping of answers, shared by all its questions."""

    def __init__(
        self,
        *,
        state: State,
        metrics: Metrics,
        places: Places,
        answer_log: AnswerLog,
        conversation_key: Callable[[Question], str | None],
        tariff: Tariff,
    ) -> None:
        self.state = state
        self.tariff = tariff
        self.metrics = metrics
        self.places = places
        self.answer_log = answer_log
        self._conversation_key = conversation_key

    async def answered(
        self,
        entry: LogEntry,
        outcome: Outcome,
        *,
        place: PlaceSettings | None,
        sink: AnswerSink | None = None,
        tariff: Tariff | None = None,
    ) -> None:
        """Everything an answer leaves: its counts, its JSON line, its tokens and cost on its
        place's budgets (billed as ``tariff``, its upstream's, else the default upstream's), its
        record in the answer log (and where its votes will arrive: ``sink``'s).
        Never raises: a store that fails here (one used without the fail-open wrapper) costs
        the record, not the answer."""
        question = entry.question
        citations = len(outcome.rendered.citations) if outcome.rendered else 0
        billed = bill(question, outcome, tariff or self.tariff)
        self.metrics.observe_answer(question.platform, outcome, billed)
        log.info(
            "answer",
            extra={
                "answer": {
                    "platform": question.platform,
                    "user": question.user_id,
                    "server": question.server_id,
                    "channel": question.channel_id,
                    "thread": question.thread_id,
                    "outcome": outcome.status,
                    "first_token_seconds": seconds_kept(outcome.first_token_seconds),
                    "first_text_seconds": seconds_kept(outcome.first_text_seconds),
                    "done_seconds": seconds_kept(outcome.total_seconds),
                    "characters": len(outcome.text),
                    "citations": citations,
                    "writes": outcome.writes,
                    "model": outcome.model,
                    "provider": billed.provider,
                    "tokens": billed.total,
                    "tokens_by_kind": dict(billed.tokens),
                    "tokens_estimated": sorted(billed.estimated),
                    "cost_usd": None if billed.cost is None else str(billed.cost),
                    "error": type(outcome.error).__name__ if outcome.error else None,
                    "own_answer": outcome.own_answer,
                }
            },
        )
        try:
            if place is not None:
                await self.places.spend(place, question.platform, question.server_id, billed)
            await self.answer_log.answered(
                entry,
                outcome,
                bill=billed,
                vote_key=sink.vote_key() if isinstance(sink, VoteKeyed) else None,
                thread=self._conversation_key(question),
                trusted=place.trusted if place is not None else None,
            )
        except Exception as error:
            log.warning("an answer's record was not kept: %s", type(error).__name__)

    async def vote(
        self,
        *,
        platform: str,
        answer_key: str,
        user_id: str,
        value: str,
        reason: Reason | None = None,
        comment: str | None = None,
    ) -> bool:
        """Keep one person's vote on an answer, with why when a 👎 said it, on its answer's
        record too (its comment where ``ANSWER_LOG`` keeps a person's words), and log it (one
        JSON line with the vote and its reason; a comment's words are the person's, never
        logged). A value or a reason citebot never offers (a forged button's) is not a vote:
        nothing is kept or counted of it, and False is returned."""
        if value not in VOTES or (reason is not None and reason not in REASONS):
            log.info("a vote of no value citebot offers was ignored (%s)", platform)
            return False
        changed = await self.state.record_feedback(answer_key, user_id, value)
        await self.answer_log.vote(
            platform,
            answer_key=answer_key,
            user_id=user_id,
            value=value,
            reason=reason,
            comment=comment,
        )
        if changed:
            self.metrics.votes.labels(platform, value).inc()
        if value == "down" and reason is not None:  # a 👎's reason may come after the 👎
            self.metrics.down_reasons.labels(platform, reason).inc()
        log.info(
            "feedback",
            extra={
                "feedback": {
                    "platform": platform,
                    "answer": answer_key,
                    "user": user_id,
                    "value": value,
                    "changed": changed,
                    "reason": reason,
                    "commented": bool(comment and comment.strip()),
                }
            },
        )
        return changed

    async def checked(self, entry: LogEntry, verdicts: Sequence[Verdict]) -> None:
        """An answer's quote checks, counted and kept on its record."""
        for verdict in verdicts:
            self.metrics.quote_checks.labels(verdict.value).inc()
        if Verdict.NOT_FOUND in verdicts:
            self.metrics.unfound_quotes.labels(entry.question.platform).inc()
        await entry.verdicts(verdicts)
