"""The face of the core that a platform's adapter sees, and all of it.

An adapter (``integrations/<platform>/``) is handed a :class:`Kit` and translates: a platform
event into a :class:`Question` asked at a :class:`Venue`, the platform's API into an
:class:`AnswerSink`, an orphaned answer's :class:`Note` into its closing message. What it may
use of the core is here: the kit's members it calls, its worker's signature (:data:`Runner`),
the ports it implements, citebot's words, and the few values that cross between them. Beside
this module an adapter imports only what draws its messages (the render ports, the layout its
cards are built from, the dialects, ``bot.i18n.wording``) and its registry entry
(``bot.platforms``): import-linter holds it to that list (``pyproject.toml``), and
``docs/architecture.md`` says why each is on it.

Nothing here imports the kit or the service: the registry names :data:`Runner` from here, and
the kit (``bot.kit``) is the one implementation of :class:`Kit`.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal, Protocol, TypeVar

from bot.answer import AnswerSink, Outcome, Question, fingerprint
from bot.budgets import Limit, Window, WriteBudget
from bot.i18n.conversation_words import REASONS, VOTES, Reason
from bot.i18n.wording import Wording
from bot.inflight import Whereabouts
from bot.ingress import Route
from bot.lookups import Kept, Looked, Lookup
from bot.ops.report import (
    PERIODS,
    Period,
    Report,
    labelled,
    made_own,
    reported_since,
    spending,
    utc_minute,
)
from bot.orphans import Note, OrphanHook
from bot.pacing import Pacer
from bot.places import (
    DISCLAIMER_LIMIT,
    KEYS,
    MOST_A_DAY,
    MOST_DOLLARS,
    Place,
    PlaceSettings,
    SettingRefused,
    Value,
)
from bot.places.keys import longest_written, read_value, value_as_said, written
from bot.places.own import ANSWER_LIMIT, QUESTION_LIMIT, OwnAnswer, as_changed, own_answer_said
from bot.places.refused import Refusal, made_or_refused
from bot.preview import LiveSink, LiveWords
from bot.printable import terminal_text
from bot.render.formatter import AnswerFormatter
from bot.render.ports import Presenter
from bot.shares import FairShare, Holder, Times
from bot.state import ForgetTooSoon, SettingChange, StateUnavailable
from bot.state.base import raise_if_cancelling, until_set
from bot.upstream.errors import UpstreamError
from bot.upstream.events import Turn
from bot.verify import Verdict
from config import PlatformSettings, Settings

__all__ = [
    "ANSWER_LIMIT",
    "DISCLAIMER_LIMIT",
    "FORGET_RETRIES",
    "KEYS",
    "MOST_A_DAY",
    "MOST_DOLLARS",
    "PERIODS",
    "QUESTION_LIMIT",
    "REASONS",
    "VOTES",
    "Act",
    "Admins",
    "Admitted",
    "AnswerFormatter",
    "AnswerSink",
    "Arrival",
    "FairShare",
    "ForgetTooSoon",
    "Gate",
    "Handoff",
    "Heard",
    "Holder",
    "Kept",
    "Kit",
    "Language",
    "Limit",
    "LiveSink",
    "LiveWords",
    "Looked",
    "Lookup",
    "Note",
    "OrphanHook",
    "Outcome",
    "OwnAnswer",
    "Pacer",
    "Period",
    "Place",
    "PlaceSettings",
    "Question",
    "Reason",
    "Refusal",
    "Report",
    "Route",
    "Runner",
    "Say",
    "SettingChange",
    "SettingRefused",
    "StateUnavailable",
    "Times",
    "Turn",
    "UpstreamError",
    "Value",
    "Venue",
    "Verdict",
    "Whereabouts",
    "Window",
    "WriteBudget",
    "as_changed",
    "fingerprint",
    "labelled",
    "longest_written",
    "made_or_refused",
    "made_own",
    "own_answer_said",
    "raise_if_cancelling",
    "read_value",
    "reported_since",
    "spending",
    "terminal_text",
    "until_set",
    "utc_minute",
    "value_as_said",
    "written",
]

S = TypeVar("S", bound=PlatformSettings)

FORGET_RETRIES = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
"""Seconds between tries to delete a removed place's data while the store does not answer
(about a minute in all): :meth:`Kit.forget_removed`'s."""


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


class Heard(enum.Enum):
    """How a message reached citebot, as the adapter reports it; what each means for
    answering is decided once, by the kit (:meth:`Kit.take`)."""

    MENTION = "mention"
    """It names citebot: a mention, its command, its shortcut, a press of its button."""
    DIRECT = "direct"
    """In a conversation with citebot alone."""
    REPLY = "reply"
    """A reply to citebot's message, or a message in a thread citebot started or answers,
    naming nobody: a follow-up where the place's ``follow_ups_without_mention`` is on."""
    POST = "post"
    """A new post naming nobody (a channel's top-level message, a new forum post, a group's
    message): answered where the place's ``auto_answer`` is on."""


Language = str | None | Callable[[], Awaitable[str | None]]
"""The person's language (a catalogue's, ``pt_BR``): as the event carries it, or looked up
once the event is claimed (Slack's ``users.info``); None: the place's."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Arrival:
    """One event that may ask something of citebot, as the adapter reports it."""

    keys: tuple[str, ...]
    """The platform's ids for it, claimed once across workers and deliveries."""
    venue: Venue
    heard: Heard = Heard.MENTION
    language: Language = None
    confirm: Callable[[], Awaitable[bool]] | None = None
    """Asked once the place heeds it, before the claim: whether it is for citebot after all,
    where finding out costs a call (Slack: whether citebot started or answered the thread a
    reply is in)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Admins:
    """The gate of a place's admins' commands (its settings, its report): the allowlists
    fence them as they fence questions, but ``enabled`` does not (an admin turns citebot back
    on), and only the platform's admins pass, as ``is_admin`` (asked last) finds them."""

    is_admin: Callable[[], Awaitable[bool]]
    duty: Literal["settings", "report"] = "settings"


Gate = Literal["askers", "everyone"] | Admins
"""Who passes a way in: ``askers`` where the place lets citebot answer (the allowlists, then
``enabled``); ``everyone`` anywhere (a person's forget-me); :class:`Admins`."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Admitted:
    """What a way in that passed its gate acts with."""

    words: Wording
    """The person's words: their language, else the place's."""
    settings: PlaceSettings
    """The settings where it happened."""
    language: str | None
    """The person's own language (None: unknown, the place's applies)."""


Act = Callable[[Admitted], Coroutine[Any, Any, None]]
Say = Callable[[str], Awaitable[None]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Handoff:
    """An asker's "Ask a person", to post once in their answer's thread."""

    target: str
    """Whom it notifies, as the place's ``handoff`` names them (a role's or group's id, a
    person's id, ``admins``): the platform mentions exactly that, and nobody else."""
    question: Question
    """The question under the answer: who asked (``user_id``), where, in which words."""
    words: Wording
    """The place's words, which the message is written in."""


class Kit(Protocol):
    """One platform's handle on the answer service: what its adapter's handlers call. The
    kit (``bot.kit.PlatformKit``) says what each member does."""

    @property
    def name(self) -> str:
        """The platform's registered name."""
        ...

    @property
    def presenter(self) -> Presenter: ...

    @property
    def settings(self) -> Settings:
        """The variables every platform shares."""
        ...

    # -- the steps of every way in
    async def take(
        self,
        arrival: Arrival,
        act: Act,
        *,
        gate: Gate = "askers",
        refuse: Say | None = None,
        spawn: bool = False,
    ) -> None: ...

    async def settings_at(self, place: Venue) -> PlaceSettings: ...

    async def words(self, place: Venue, language: str | None) -> Wording: ...

    def wording(self, language: str | None) -> Wording: ...

    async def ask(
        self, question: Question, sink: AnswerSink, *, max_messages: int | None = None
    ) -> Outcome | None: ...

    def claim_question(self, words: Wording, claim: str) -> str: ...

    async def refuse(self, sink: AnswerSink, words: str) -> None: ...

    async def vote(
        self,
        *,
        answer_key: str,
        user_id: str,
        value: str,
        reason: Reason | None = None,
        comment: str | None = None,
    ) -> bool: ...

    # -- a place's admins, and forgetting
    async def change_setting(
        self, place: Venue, key: str, value: str | None, *, by: str
    ) -> SettingChange | None: ...

    async def setting_history(self, place: Venue) -> list[SettingChange]: ...

    async def report(self, place: Venue, since: timedelta) -> Report: ...

    async def forget_person(self, user_id: str) -> int: ...

    async def forget_place(self, server: str) -> int: ...

    async def forget_removed(self, server: str, retries: Sequence[float] = ...) -> None: ...

    # -- a place's own answers, and the buttons under an answer
    async def own_answers(self, place: Venue) -> list[OwnAnswer]: ...

    async def add_own_answer(
        self,
        place: Venue,
        question: str,
        answer: str,
        *,
        by: str,
        name: str,
        language: str | None,
    ) -> OwnAnswer: ...

    async def remove_own_answer(self, place: Venue, answer: str, *, by: str) -> OwnAnswer: ...

    async def sources_asked(
        self, *, answer_key: str, user_id: str, language: str | None
    ) -> Question | str: ...

    async def person_asked(
        self, *, answer_key: str, user_id: str, language: str | None
    ) -> Handoff | str: ...

    # -- conversations
    async def remembered(self, question: Question) -> tuple[Turn, ...]: ...

    async def join_thread(
        self, message: str, thread: str, *, person: str, server: str | None
    ) -> None: ...

    async def thread_of(self, message: str) -> str | None: ...

    @property
    def history_turns(self) -> int: ...

    # -- what the platform's clients share
    @property
    def accepting(self) -> bool: ...

    def serve_http(
        self, port: int, routes: Sequence[Route]
    ) -> AbstractAsyncContextManager[int]: ...

    def write_budget(
        self,
        limits: Mapping[str, Limit],
        *,
        token: str,
        margin: float = ...,
        time_scale: float = ...,
    ) -> WriteBudget: ...

    def kept(self, what: str) -> Kept: ...

    def fair_share(
        self,
        *,
        token: str,
        what: str,
        count: int = ...,
        pinned: Iterable[int] = ...,
        times: Times | None = ...,
    ) -> FairShare: ...

    def rate_limited(self) -> None: ...

    def spawn(self, work: Coroutine[Any, Any, None]) -> None: ...

    def serving(self, orphans: OrphanHook) -> AbstractAsyncContextManager[None]: ...


Runner = Callable[[Kit, S, asyncio.Event], Coroutine[Any, Any, None]]
"""A platform's worker: answers through the kit until cancelled (or its ``stop`` is set),
sets the event once connected, and drains its own tasks on the way out."""
