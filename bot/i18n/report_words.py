"""What citebot says about its answer log: the report's headings and labels (``citebot report``
and the platforms' reports, and who may read them), a token budget used up, and a person's data
forgotten (asked, done, and what stays on the platform). Part of
:class:`~bot.i18n.wording.Wording`, kept apart so that module stays readable; extracted and
translated with every other sentence."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import time
from decimal import Decimal
from typing import Protocol

from babel import Locale
from babel.dates import format_time

__all__ = ["ReportLabels", "ReportWording"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ReportLabels:
    """The words of a report, whatever shows it (a terminal's tables, a platform's message)."""

    answers: str
    outcomes: dict[str, str]
    """``answered``, ``interrupted``, ``failed``, ``filtered``, ``refused``."""
    refusals: dict[str, str]
    """Why a question was refused: ``rate_limit``, ``too_long``, ``daily_questions``,
    ``daily_questions_per_person``, ``daily_tokens``, ``daily_cost``."""
    votes: str
    down_reasons: str
    no_reason: str
    """A 👎 with no reason given."""
    top_questions: str
    unfound_quotes: str
    """Answers with a quote not found on its page."""
    sites: str
    first_text: str
    """Time to first text (p50, p95)."""
    tokens: str
    kinds: dict[str, str]
    """The kinds of tokens a provider bills: ``input``, ``system``, ``output``."""
    estimated: str
    """Of the tokens, those citebot estimated (the upstream reported none of their kind)."""
    cost: str
    unpriced: str
    """Answers whose provider's prices are unknown, so their cost is not counted."""
    channels: str
    own_answers: str
    """Questions given the place's own answer."""
    handoffs: str
    """Answers whose asker asked for a person."""
    untrusted: str
    """Heads the sites of sources outside the place's trusted sources."""
    what: str
    count: str
    nothing: str


class _Speaker(Protocol):
    @property
    def locale(self) -> Locale: ...

    def _(self, text: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def dollars(self, amount: Decimal) -> str: ...

    def number(self, n: float) -> str: ...

    def duration(self, seconds: float) -> str: ...


class ReportWording:
    """Mixed into :class:`~bot.i18n.wording.Wording`, which speaks its language."""

    __slots__ = ()

    @property
    def report_labels(self: _Speaker) -> ReportLabels:
        return ReportLabels(
            answers=self._("Answers"),
            outcomes={
                "answered": self._("Answered"),
                "interrupted": self._("Interrupted"),
                "failed": self._("Failed"),
                "filtered": self._("Declined by the answer service"),
                "refused": self._("Refused"),
            },
            refusals={
                "rate_limit": self._("Refused: too many questions in a minute"),
                "too_long": self._("Refused: question too long"),
                "daily_questions": self._("Refused: daily question limit"),
                "daily_questions_per_person": self._("Refused: daily limit per person"),
                "daily_tokens": self._("Refused: daily token budget"),
                "daily_cost": self._("Refused: daily spending limit"),
            },
            votes=self._("Votes"),
            down_reasons=self._("Why 👎"),
            no_reason=self._("No reason given"),
            top_questions=self._("Most asked questions"),
            unfound_quotes=self._("Answers with a quote not found on its page"),
            sites=self._("Sites those quotes cite"),
            first_text=self._("Time to first text, in seconds"),
            tokens=self._("Tokens used"),
            kinds={
                "input": self._("Input: the questions and their context"),
                "system": self._("System: the answer service's own searching"),
                "output": self._("Output: the answers"),
            },
            estimated=self._("Of these, estimated by citebot"),
            cost=self._("Cost"),
            unpriced=self._("Answers of unknown price, not in the cost"),
            channels=self._("Where most questions were asked"),
            own_answers=self._("Answered with the admins' own answer"),
            handoffs=self._("Asked for a person"),
            untrusted=self._("Cited sources outside the trusted ones, by site"),
            what=self._("What"),
            count=self._("Count"),
            nothing=self._("Nothing was asked in this period."),
        )

    def report_period(self: _Speaker, place: str | None, since: str, until: str) -> str:
        """A report's heading; ``since`` and ``until`` are times in UTC."""
        if place is None:
            return self._("Every place, from {since} to {until} (UTC)").format(
                since=since, until=until
            )
        return self._("{place}, from {since} to {until} (UTC)").format(
            place=place, since=since, until=until
        )

    def questions_not_kept(self: _Speaker, mode: str) -> str:
        """The most asked questions, when the log keeps no question's words."""
        return self._(
            "The questions' words are not kept ({setting}), so the most asked "
            "questions cannot be shown."
        ).format(setting=f"ANSWER_LOG={mode}")

    def not_a_period(self: _Speaker, got: str) -> str:
        """``citebot report --since`` that is not a period."""
        return self._(
            "--since: write a period such as 7d, 24h or 30m (days, hours, minutes), got {got}"
        ).format(got=got)

    def not_a_report_format(self: _Speaker, got: str) -> str:
        return self._("--format: must be table, csv or json, got {got}").format(got=got)

    def daily_budget_spent(
        self: _Speaker, setting: str, limit: int | Decimal, retry_after: float
    ) -> str:
        """A question where today's ``daily_tokens`` or ``daily_cost`` is used up: which, and
        when it resets: at the end of the UTC day, said as a time in this language's way
        (``12:00 AM``, ``00:00``) and as a wait (``retry_after`` seconds)."""
        midnight = format_time(time(0, 0), format="short", locale=self.locale)
        if setting == "daily_cost":
            said = self._(
                "Today's spending limit here ({limit}) has been reached. citebot will answer "
                "here again at {time} (UTC), in {wait}."
            )
            amount = self.dollars(Decimal(limit))
        else:
            said = self._(
                "Today's budget of {limit} tokens here has been used. citebot will answer here "
                "again at {time} (UTC), in {wait}."
            )
            amount = self.number(int(limit))
        return said.format(limit=amount, time=midnight, wait=self.duration(retry_after))

    def forgot_you(self: _Speaker) -> str:
        """Forget-me done."""
        return self._(
            "Done: citebot has deleted everything it kept about you: your questions and "
            "their answers, your votes, the memory of the conversations you asked in, and "
            "your daily counts."
        )

    def could_not_forget(self: _Speaker) -> str:
        return self._(
            "citebot could not delete your data: its store is not responding. Nothing was "
            "deleted; please try again in a moment."
        )

    def forget_me_asks(self: _Speaker) -> str:
        """Forget-me, before the person confirms it (:meth:`forget_me_button`)."""
        return self._(
            "citebot will delete everything it keeps about you: your questions and their "
            "answers, your votes, the memory of the conversations you asked in, and your daily "
            "counts. This cannot be undone."
        )

    def forget_me_button(self: _Speaker) -> str:
        """The button that confirms forget-me."""
        return self._("Delete my data")

    def forget_me_leaves(self: _Speaker, platform: str) -> str:
        """What forget-me cannot delete: the messages on the platform (``Discord``)."""
        return self._(
            "Messages already posted on {platform}, yours and citebot's answers, are kept by "
            "{platform}, not by citebot: they stay until they are deleted there."
        ).format(platform=platform)

    def not_your_button(self: _Speaker) -> str:
        """A button pressed by someone other than the person it was shown to."""
        return self._("Only the person who asked can use this button.")

    def report_periods(self: _Speaker) -> dict[str, str]:
        """The periods a report may cover, as an admin picks them: ``today`` (the UTC day),
        ``7d``, ``30d``."""
        return {
            "today": self._("Today (UTC)"),
            "7d": self._("Last 7 days"),
            "30d": self._("Last 30 days"),
        }

    def report_admins_only(self: _Speaker) -> str:
        return self._("Only the admins here can see citebot's report.")

    def no_report_here(self: _Speaker) -> str:
        """A report asked for outside any server, workspace or group."""
        return self._(
            "citebot's report is about a server, a workspace or a group: ask for it there."
        )

    def records_unreadable(self: _Speaker, n: int) -> str:
        """Under a report: records of its period that the store holds damaged, left out."""
        return self.ngettext(
            "{n} record could not be read and is not counted.",
            "{n} records could not be read and are not counted.",
            n,
        ).format(n=self.number(n))

    def forget_me_too_soon(self: _Speaker, retry_after: float) -> str:
        """Forget-me asked again too soon after the last time (its data went then)."""
        return self._(
            "citebot deleted your data a moment ago. To delete what it has kept since, ask "
            "again in {wait}."
        ).format(wait=self.duration(retry_after))

    def could_not_read_report(self: _Speaker) -> str:
        return self._(
            "citebot could not read its answer log: its store is not responding. Please try "
            "again in a moment."
        )
