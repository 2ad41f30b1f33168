"""The platform kit: what every platform's adapter is handed, on a platform another
distribution registers (the core's tests import no platform of citebot's own)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import replace
from typing import Any

import pytest

from bot.adapter import Admitted, Arrival, Venue
from bot.admission import Admission
from bot.answer import Question
from bot.i18n.wording import WORDING, Wording
from bot.kit import PlatformKit
from bot.places import SettingRefused
from bot.platforms import Platform, load_platform
from bot.render.ports import Payload
from bot.service import AnswerService
from bot.state import open_state
from bot.upstream.client import AnswerClient
from config import PlatformSettings, load_settings
from tests.bot.presenter import PlainPresenter
from tests.bot.test_service import NOW, Sink
from tests.sim.upstream import UpstreamSim, answer

GROUP = Venue(server="-100200", channel=None)


@pytest.fixture
async def service(answer_client: AnswerClient) -> AsyncIterator[AnswerService]:
    async with open_state("memory://") as state:
        yield AnswerService(client=answer_client, state=state, admission=Admission(max_in_flight=2))


def _kit(service: AnswerService, platform: Platform[Any]) -> PlatformKit:
    return PlatformKit(
        service,
        platform,
        environment=PlatformSettings(),
        settings=load_settings({}, env_file=None),
        presenter=PlainPresenter(),
        pacer=NOW,
    )


@pytest.fixture
def kit(service: AnswerService, register_platform: Callable[[str], None]) -> PlatformKit:
    register_platform("signal")
    return _kit(service, load_platform("signal"))


async def test_an_admins_change_is_applied_and_recorded_and_can_be_undone(
    kit: PlatformKit,
) -> None:
    made = await kit.change_setting(GROUP, "language", "fr", by="admin-1")
    assert made is not None
    assert (await kit.settings_at(GROUP)).language == "fr"
    assert (await kit.words(GROUP, None)).language == "fr"
    assert (await kit.words(GROUP, "de")).language == "de"  # the asker's own language first
    await kit.change_setting(GROUP, "language", None, by="admin-2")
    assert (await kit.settings_at(GROUP)).language == "en"
    history = await kit.setting_history(GROUP)
    assert [(c.by, c.key, c.old, c.new) for c in history] == [
        ("admin-1", "language", None, "fr"),
        ("admin-2", "language", "fr", None),
    ]


async def test_a_bad_value_is_refused_in_the_admins_language_and_changes_nothing(
    kit: PlatformKit,
) -> None:
    with pytest.raises(SettingRefused) as refused:
        await kit.change_setting(GROUP, "enabled", "peut-être", by="admin")
    assert refused.value.said(Wording("fr")).startswith("enabled\u00a0: doit valoir on ou off")
    assert await kit.setting_history(GROUP) == []
    with pytest.raises(SettingRefused) as outside:
        await kit.change_setting(Venue(direct=True), "enabled", "off", by="anyone")
    assert "not to a conversation with citebot alone" in outside.value.said(Wording())


async def test_a_place_turned_off_refuses_in_its_language(kit: PlatformKit) -> None:
    await kit.change_setting(GROUP, "enabled", "off", by="admin")
    await kit.change_setting(GROUP, "language", "nl", by="admin")
    said: list[str] = []
    acted: list[Admitted] = []

    async def act(admitted: Admitted) -> None:
        acted.append(admitted)

    async def refuse(words: str) -> None:
        said.append(words)

    await kit.take(Arrival(keys=("m1",), venue=GROUP), act, refuse=refuse)
    assert said == [Wording("nl").not_allowed_here()]
    assert acted == []
    await kit.take(Arrival(keys=("m2",), venue=Venue(server="-100300")), act, refuse=refuse)
    assert [admitted.words.language for admitted in acted] == ["en"]
    assert len(said) == 1


async def test_a_thumbs_down_with_its_reason_is_kept_and_logged_without_its_words(
    kit: PlatformKit, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "citebot.answers")
    await kit.vote(
        answer_key="signal:1",
        user_id="U1",
        value="down",
        reason="quote_not_on_page",
        comment="My own words about it",
    )
    [feedback] = [r.__dict__["feedback"] for r in caplog.records if "feedback" in r.__dict__]
    assert (feedback["value"], feedback["reason"], feedback["commented"]) == (
        "down",
        "quote_not_on_page",
        True,
    )
    assert "My own words" not in caplog.text


async def test_the_disclaimer_and_the_daily_limit_of_a_place_apply_to_its_answers(
    kit: PlatformKit,
) -> None:
    await kit.change_setting(GROUP, "disclaimer", "Generated: check with a person.", by="a")
    await kit.change_setting(GROUP, "daily_questions", "1", by="a")

    def asked(text: str) -> Question:
        return Question(
            text=text, platform="signal", user_id="U1", channel_id="-100200", server_id="-100200"
        )

    first, second = Sink(), Sink()
    await kit.ask(asked("First?"), first)
    await kit.ask(asked("Second?"), second)
    assert first.shown[-1].endswith("*Generated: check with a person.*")
    assert second.shown[-1].startswith("Today's limit of questions here (1) has been reached.")


async def test_a_platform_that_shows_the_disclaimer_apart_gets_an_answer_without_it(
    service: AnswerService, kit: PlatformKit
) -> None:
    """Slack shows a place's disclaimer in a context block beside the answer: the answer's text
    must not say it a second time."""
    apart = _kit(service, replace(kit.platform, disclaimer_apart=True))
    await apart.change_setting(GROUP, "disclaimer", "Generated: check with a person.", by="a")
    sink = Sink()
    await apart.ask(
        Question(
            text="What?", platform="signal", user_id="U1", channel_id="-100200", server_id="-100200"
        ),
        sink,
    )
    assert sink.shown
    assert "Generated" not in sink.shown[-1]
    assert (await apart.settings_at(GROUP)).disclaimer == "Generated: check with a person."


async def test_an_adapter_may_let_one_answer_take_fewer_messages_than_the_worker(
    kit: PlatformKit, upstream: UpstreamSim
) -> None:
    """Discord lets a user-installed app send five followups where its bot is not a member:
    the adapter caps that answer, and it stops at the cap with the note, as at the worker's."""
    paragraphs = [f"Paragraph {n}: " + "grace builds on nature. " * 50 + "\n\n" for n in range(4)]
    upstream.queue(answer(paragraphs), answer(paragraphs))
    question = Question(text="Long?", platform="signal", user_id="U1", channel_id="-100200")
    capped, whole = Messages(), Messages()
    await kit.ask(question, capped, max_messages=2)
    await kit.ask(question, whole)
    assert len(capped.last) == 2
    assert capped.last[-1]["content"].endswith(WORDING.too_long() + "*")
    assert len(whole.last) == 4
    assert WORDING.too_long() not in whole.last[-1]["content"]


class Messages:
    """A sink that keeps the messages of the last write."""

    def __init__(self) -> None:
        self.last: list[Payload] = []

    async def show(self, messages: Sequence[Payload], *, final: bool) -> None:
        self.last = list(messages)

    async def post_thread(self, payloads: Sequence[Payload]) -> None:
        pass

    async def edit_thread(self, index: int, payload: Payload) -> None:
        pass
