"""Why a question is not answered: too long, asked too often by its person, or past its
place's budgets and daily quotas. Asked before anything is spent on it, in an order that counts
a question on no quota when anything else refuses it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.answer import Question
from bot.i18n.wording import Wording
from bot.ops.metrics import Metrics
from bot.places import Places, PlaceSettings
from bot.state import State
from bot.state.names import rate_window
from config import Settings

__all__ = ["Limits", "QuestionGate"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    max_question_length: int = 2000
    questions_per_minute: int = 10
    history_turns: int = 6
    memory_ttl: float = 7 * 24 * 3600.0
    max_answer_messages: int | None = 10
    """Messages one answer may take; the rest of a longer one is left out with a note."""
    max_cards: int | None = 20
    """Citation cards one answer may post; the rest are summarised in one message."""

    @classmethod
    def from_settings(cls, settings: Settings) -> Limits:
        return cls(
            max_question_length=settings.max_question_length,
            questions_per_minute=settings.rate_limit_per_minute,
            history_turns=settings.history_turns,
            memory_ttl=float(settings.memory_ttl_seconds),
            max_answer_messages=settings.max_answer_messages,
            max_cards=settings.max_cards,
        )


class QuestionGate:
    """The worker's limits and each place's quotas, asked of one question at a time."""

    def __init__(self, *, limits: Limits, state: State, places: Places, metrics: Metrics) -> None:
        self.limits = limits
        self.state = state
        self.places = places
        self.metrics = metrics

    async def refusal(
        self,
        question: Question,
        wording: Wording,
        place: PlaceSettings | None,
        *,
        upstream: bool = True,
    ) -> tuple[str, str] | None:
        """Why not to answer ``question``, and the words that say it in ``wording``; None to
        answer it. The place's daily quotas are asked last, so a question refused for any other
        reason counts on none; its budgets of tokens and cost just before them (they count
        nothing). A question its place answers itself (not ``upstream``) costs none."""
        if not question.text.strip():
            return "empty", wording.empty_question()
        if len(question.text) > self.limits.max_question_length:
            return "too_long", wording.question_too_long(self.limits.max_question_length)
        decision = await self.state.hit(
            rate_window(question.platform, question.user_id),
            limit=self.limits.questions_per_minute,
            per_seconds=60,
        )
        if not decision.allowed:
            self.metrics.rate_limited_users.labels(question.platform).inc()
            return "rate_limit", wording.user_rate_limited(decision.retry_after)
        if place is not None and upstream:
            budget = await self.places.budget(place)
            if not budget.allowed and budget.refused_by is not None:
                said = wording.daily_budget_spent(
                    budget.refused_by, budget.limit, budget.retry_after
                )
                return budget.refused_by, said
            quota = await self.places.take_question(place, question.user_id)
            if not quota.allowed:
                per_person = quota.refused_by == "daily_questions_per_person"
                said = wording.daily_limit_reached(
                    int(quota.limit), quota.retry_after, per_person=per_person
                )
                return quota.refused_by or "daily_questions", said
        return None
