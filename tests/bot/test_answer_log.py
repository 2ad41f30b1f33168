"""The answer log as questions fill it through the real service and a platform's kit: what
each record holds under each ``ANSWER_LOG``, the votes and reasons, the quote checks, the
tokens (reported or estimated) and the daily token budget, the report, and forget-me."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import timedelta
from pathlib import Path

import pytest

from bot.adapter import Venue
from bot.admission import Admission
from bot.answer import Question
from bot.answerlog import AnswerLog, Mode
from bot.billing import estimate_tokens
from bot.kit import PlatformKit
from bot.platforms import load_platform
from bot.render.ports import Payload
from bot.service import AnswerService
from bot.state import LoggedAnswer, State, open_state
from bot.upstream.client import AnswerClient
from bot.verify.checker import QuoteChecker
from config import PlatformSettings, load_settings
from tests.bot.conftest import FAST
from tests.bot.presenter import PlainPresenter
from tests.bot.state.scan import everything_stored
from tests.bot.test_service import NOW
from tests.sim.pages import ON_PAGE, Site, article, cited, quote_checks_finished
from tests.sim.upstream import Stream, UpstreamSim, answer, chunk

GROUP = Venue(server="-100200", channel=None)
ASKER, VOTER = "4401", "4402"


class Sink:
    """A conversation on the platform: what it shows, and (as a platform's sink does) the key
    the vote buttons under its answer send (``bot.answerlog.VoteKeyed``)."""

    answers = 0

    def __init__(self) -> None:
        Sink.answers += 1
        self.key = f"signal:message-{Sink.answers}"
        self.shown: list[str] = []

    async def show(self, messages: Sequence[Payload], *, final: bool) -> None:
        self.shown.append("\n".join(str(m.get("content", "")) for m in messages))

    async def post_thread(self, payloads: Sequence[Payload]) -> None:
        pass

    async def edit_thread(self, index: int, payload: Payload) -> None:
        pass

    def vote_key(self) -> str | None:
        return self.key


Kit = Callable[..., PlatformKit]


@pytest.fixture
async def kits(
    answer_client: AnswerClient, register_platform: Callable[[str], None], tmp_path: Path
) -> AsyncIterator[Kit]:
    """A kit of a platform another distribution registers, its service on a SQLite store and
    logging as ``mode`` says."""
    register_platform("signal")
    states: list[State] = []

    def make(mode: Mode = "metadata", checker: QuoteChecker | None = None) -> PlatformKit:
        state = open_state(f"sqlite:///{tmp_path / 'state.db'}")
        states.append(state)
        service = AnswerService(
            client=answer_client,
            state=state,
            admission=Admission(max_in_flight=4),
            answer_log=AnswerLog(state, mode=mode),
            checker=checker,
        )
        return PlatformKit(
            service,
            load_platform("signal"),
            environment=PlatformSettings(),
            settings=load_settings({}, env_file=None),
            presenter=PlainPresenter(),
            pacer=NOW,
        )

    yield make
    for state in states:
        await state.aclose()


async def ask(
    kit: PlatformKit, text: str, *, user: str = ASKER, language: str | None = None
) -> Sink:
    sink = Sink()
    question = Question(
        text=text,
        platform="signal",
        user_id=user,
        channel_id="-100200",
        server_id=GROUP.server,
        thread_id="topic-1",
        language=language,
    )
    await kit.ask(question, sink)
    return sink


async def logged(kit: PlatformKit) -> list[LoggedAnswer]:
    state = kit._service.state
    return [
        r async for batch in state.logged_answers(since=0, until=time.time() + 1) for r in batch
    ]


@pytest.mark.parametrize(
    ("mode", "question_kept", "answer_kept"),
    [("metadata", False, False), ("questions", True, False), ("full", True, True)],
)
async def test_each_answer_leaves_a_record_holding_what_answer_log_keeps(
    kits: Kit, upstream: UpstreamSim, mode: Mode, question_kept: bool, answer_kept: bool
) -> None:
    kit = kits(mode)
    upstream.queue(answer(["Grace is", " a gift."]))
    await ask(kit, "What is grace?", language="fr")
    [record] = await logged(kit)
    assert (record.platform, record.server, record.channel, record.asker) == (
        "signal",
        "-100200",
        "-100200",
        ASKER,
    )
    assert (record.language, record.outcome, record.model) == ("fr", "answered", "magisterium-1")
    assert record.first_text_seconds is not None
    assert record.total_seconds is not None
    assert record.first_text_seconds <= record.total_seconds
    # the upstream's usage, and nothing estimated
    assert (record.tokens, record.estimated) == (14, {})
    assert record.reported == {"prompt": 12, "completion": 2, "total": 14}
    assert (record.provider, record.cost) == ("upstream", None)  # nobody said its prices
    assert record.question == ("What is grace?" if question_kept else None)
    assert record.answer == ("Grace is a gift." if answer_kept else None)
    assert record.vote_key is not None


async def test_off_keeps_no_record(kits: Kit, upstream: UpstreamSim) -> None:
    kit = kits("off")
    await ask(kit, "What is grace?")
    assert await logged(kit) == []


async def test_an_upstream_without_usage_has_its_tokens_estimated_and_the_report_says_so(
    kits: Kit, upstream: UpstreamSim
) -> None:
    kit = kits()
    upstream.queue(
        Stream((chunk("La grâce est un don."), chunk(finish_reason="stop"))),
        answer(["Reported."]),
    )
    await ask(kit, "Qu'est-ce que la grâce ?")
    await ask(kit, "And this?")
    first, second = await logged(kit)
    sent, received = (
        estimate_tokens("Qu'est-ce que la grâce ?"),
        estimate_tokens("La grâce est un don."),
    )
    assert (first.tokens, first.reported) == (sent + received, {})
    assert first.estimated == {"input": sent, "output": received}
    assert (second.tokens, second.estimated) == (13, {})
    report = await kit.report(GROUP, timedelta(days=1))
    assert report.tokens_counted("estimated") == sent + received
    assert report.tokens_counted("reported") == 13
    assert report.tokens == {
        "input": {"estimated": sent, "reported": 12},
        "output": {"estimated": received, "reported": 1},
    }


async def test_votes_and_their_reasons_are_kept_on_their_answer_and_counted(
    kits: Kit, upstream: UpstreamSim
) -> None:
    kit = kits("questions")
    liked, disliked = await ask(kit, "What is grace?"), await ask(kit, "What is mercy?")
    await kit.vote(answer_key=liked.key, user_id=VOTER, value="up")
    await kit.vote(answer_key=disliked.key, user_id=VOTER, value="up")
    await kit.vote(  # the same person changes their mind, and says why
        answer_key=disliked.key,
        user_id=VOTER,
        value="down",
        reason="quote_not_on_page",
        comment="The page says something else.",
    )
    await kit.vote(answer_key=disliked.key, user_id=ASKER, value="down")
    records = {r.question: r for r in await logged(kit)}
    [vote] = records["What is grace?"].votes
    assert (vote.user, vote.value) == (VOTER, "up")
    votes = {v.user: v for v in records["What is mercy?"].votes}
    assert (votes[VOTER].value, votes[VOTER].reason, votes[VOTER].comment) == (
        "down",
        "quote_not_on_page",
        "The page says something else.",
    )
    assert (votes[ASKER].value, votes[ASKER].reason) == ("down", None)
    report = await kit.report(GROUP, timedelta(hours=1))
    assert (report.up, report.down) == (1, 2)
    assert report.down_reasons == {"quote_not_on_page": 1, "none": 1}
    assert report.top_questions == (("What is grace?", 1), ("What is mercy?", 1))


async def test_a_comment_is_not_kept_where_the_log_keeps_no_words(
    kits: Kit, upstream: UpstreamSim
) -> None:
    kit = kits("metadata")
    sink = await ask(kit, "What is grace?")
    await kit.vote(answer_key=sink.key, user_id=VOTER, value="down", reason="other", comment="Mine")
    [record] = await logged(kit)
    [vote] = record.votes
    assert (vote.reason, vote.comment) == ("other", None)


async def test_a_place_over_its_token_budget_is_told_when_it_resets_in_the_askers_language(
    kits: Kit, upstream: UpstreamSim
) -> None:
    kit = kits()
    await kit.change_setting(GROUP, "daily_tokens", "20", by="admin")
    first = await ask(kit, "First?")  # 12 + 2 tokens: 14 used
    second = await ask(kit, "Second?")  # 14 < 20: answered, 28 used
    refused = await ask(kit, "Third?", language="fr")
    english = await ask(kit, "Fourth?")
    assert first.shown[-1] == second.shown[-1] == "Hello world."
    assert len(upstream.requests) == 2
    assert refused.shown[-1].startswith(
        "Le budget du jour de 20 tokens est épuisé ici. citebot répondra de nouveau ici à 00:00 "
        "(UTC), dans "
    )
    assert english.shown[-1].startswith(
        "Today's budget of 20 tokens here has been used. citebot will answer here again at "
        "12:00\u202fAM (UTC), in "
    )
    report = await kit.report(GROUP, timedelta(days=1))
    assert report.outcomes == {"answered": 2, "refused": 2}
    assert report.refusals == {"daily_tokens": 2}
    assert report.tokens_counted("reported") == 28


async def test_the_quote_checks_complete_the_record_and_the_report_names_their_sites(
    kits: Kit, upstream: UpstreamSim, site: Site
) -> None:
    site.html("/found", article(ON_PAGE))
    site.html("/changed", article("Mercy is shown to those who ask for it."))
    async with QuoteChecker(allow_hosts=[("127.0.0.1", site.port)], limits=FAST) as checker:
        kit = kits(checker=checker)
        upstream.queue(cited(site, ("/found", ON_PAGE), ("/changed", "Mercy is kindness.")))
        await ask(kit, "What is grace?")
        await quote_checks_finished()  # the verdicts written on the record are part of them
    [record] = await logged(kit)
    assert [(s.title, s.url, s.verdict) for s in record.sources] == [
        ("Page /found", site.url("/found"), "found"),
        ("Page /changed", site.url("/changed"), "not_found"),
    ]
    report = await kit.report(GROUP, timedelta(days=1))
    assert report.unfound_quotes == 1
    assert report.unfound_sites == (("127.0.0.1", 1),)


async def test_forget_me_leaves_nothing_of_the_asker_in_the_store(
    kits: Kit, upstream: UpstreamSim, tmp_path: Path
) -> None:
    kit = kits("full")
    await kit.change_setting(GROUP, "daily_questions_per_person", "5", by="admin")
    mine = await ask(kit, "What is grace?")
    theirs = await ask(kit, "What is mercy?", user=VOTER)
    await kit.vote(answer_key=theirs.key, user_id=ASKER, value="down", reason="other")
    await kit.vote(answer_key=mine.key, user_id=VOTER, value="up")
    store = kit._service.state
    url = f"sqlite:///{tmp_path / 'state.db'}"
    assert ASKER in await everything_stored(store, url, "citebot")

    assert await kit.forget_person(ASKER) > 0

    held = await everything_stored(store, url, "citebot")
    assert ASKER not in held
    assert "What is grace?" not in held  # the conversation's memory went with the asker
    [left] = await logged(kit)
    assert (left.asker, left.question, left.votes) == (VOTER, "What is mercy?", ())
    assert (
        await kit.remembered(
            Question(
                text="", platform="signal", user_id=VOTER, channel_id="-100200", thread_id="topic-1"
            )
        )
        == ()
    )
