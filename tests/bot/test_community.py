"""What a community makes its own, through the kit a platform is handed: its own answers (given
with no upstream call, a button to ask the sources anyway), "Ask a person" (its asker only,
once), its trusted sources (marked on the cards, counted in the report) and its provider (its
questions to that upstream, with its key)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from datetime import timedelta

import pytest

from bot.adapter import Handoff, Venue
from bot.admission import Admission
from bot.answer import Question
from bot.connect import open_providers
from bot.kit import PlatformKit
from bot.places import Places, SettingRefused
from bot.preview import CollectingSink
from bot.service import AnswerService
from bot.state import open_state
from bot.upstream.client import AnswerClient
from config import load_settings
from tests.bot.kits import signal_kit
from tests.sim.upstream import UpstreamSim, answer, magisterium_citation

GROUP = Venue(server="-100200", channel=None)


class KeyedSink(CollectingSink):
    """An answer's messages as the platform would show them, under the key its buttons send."""

    def __init__(self, key: str) -> None:
        super().__init__()
        self.key = key

    def vote_key(self) -> str:
        return self.key

    @property
    def text(self) -> str:
        return "\n".join(str(message["content"]) for message in self.answer)

    @property
    def buttons(self) -> list[str]:
        return [b for message in self.answer for b in message.get("buttons", [])]


def asked(text: str, *, by: str = "asker", channel: str = "-100200") -> Question:
    return Question(
        text=text, platform="signal", user_id=by, channel_id=channel, server_id="-100200"
    )


@pytest.fixture
async def service(answer_client: AnswerClient) -> AsyncIterator[AnswerService]:
    settings = load_settings({}, env_file=None)
    async with open_state("memory://") as state:
        yield AnswerService(
            client=answer_client,
            state=state,
            admission=Admission(max_in_flight=2),
            places=Places(state, defaults=settings),
        )


@pytest.fixture
def kit(service: AnswerService, register_platform: Callable[[str], None]) -> PlatformKit:
    register_platform("signal")
    return signal_kit(service)


async def keep_mass_times(kit: PlatformKit, where: Venue = GROUP, answer: str = "") -> None:
    await kit.add_own_answer(
        where,
        "When is Mass on Sunday?",
        answer or "Sunday Mass is at **10:00** and 18:00.",
        by="admin-1",
        name="Anna",
        language="en",
    )


async def test_a_reworded_question_gets_the_own_answer_with_no_upstream_call(
    kit: PlatformKit, upstream: UpstreamSim
) -> None:
    await keep_mass_times(kit)
    sink = KeyedSink("answer-1")
    outcome = await kit.ask(asked("What time is Sunday Mass?"), sink)
    assert outcome is not None
    assert outcome.own_answer is not None
    assert "Sunday Mass is at **10:00** and 18:00." in sink.text
    assert "the admins' own answer here, set by Anna on" in sink.text
    assert sink.buttons == ["ask_sources"]
    assert sink.thread == []
    assert upstream.requests == []


async def test_ask_the_sources_asks_them_once_for_the_asker_alone(
    kit: PlatformKit, upstream: UpstreamSim
) -> None:
    await keep_mass_times(kit)
    await kit.ask(asked("when is the sunday mass"), KeyedSink("answer-1"))
    refused = await kit.sources_asked(answer_key="answer-1", user_id="someone", language=None)
    assert refused == "Only the person who asked can use this button."
    question = await kit.sources_asked(answer_key="answer-1", user_id="asker", language=None)
    assert isinstance(question, Question)
    assert not question.own_answers
    sink = KeyedSink("answer-2")
    await kit.ask(question, sink)
    assert [m[-1]["content"] for m in upstream.questions] == ["when is the sunday mass"]
    assert "Hello world." in sink.text
    again = await kit.sources_asked(answer_key="answer-1", user_id="asker", language="fr")
    assert isinstance(again, str)
    assert again.startswith("Les sources ont déjà été")
    gone = await kit.sources_asked(answer_key="answer-9", user_id="asker", language=None)
    assert gone == "This button no longer works. Please ask your question again."


@pytest.mark.parametrize(
    "near_miss",
    ["Why is Mass on Sunday?", "When is Mass on Saturday?", "Who celebrates Mass on Sunday?"],
)
async def test_a_question_that_only_shares_words_goes_to_the_sources(
    kit: PlatformKit, upstream: UpstreamSim, near_miss: str
) -> None:
    await keep_mass_times(kit)
    sink = KeyedSink("answer-1")
    outcome = await kit.ask(asked(near_miss), sink)
    assert outcome is not None
    assert outcome.own_answer is None
    assert len(upstream.requests) == 1
    assert sink.text == "Hello world."
    assert sink.buttons == []


async def test_a_channels_own_answer_overrides_its_servers(kit: PlatformKit) -> None:
    await keep_mass_times(kit, answer="At 10:00 in the cathedral.")
    choir = Venue(server="-100200", channel="choir")
    await keep_mass_times(kit, where=choir, answer="The choir sings at the 18:00 Mass.")
    in_choir, elsewhere = KeyedSink("a"), KeyedSink("b")
    await kit.ask(asked("What time is Sunday Mass?", channel="choir"), in_choir)
    await kit.ask(asked("What time is Sunday Mass?", channel="news"), elsewhere)
    assert "The choir sings" in in_choir.text
    assert "cathedral" not in in_choir.text
    assert "cathedral" in elsewhere.text


async def test_own_answers_are_managed_by_id_and_refused_when_malformed(kit: PlatformKit) -> None:
    await keep_mass_times(kit)
    [kept] = await kit.own_answers(GROUP)
    assert (kept.question, kept.name, kept.by) == ("When is Mass on Sunday?", "Anna", "admin-1")
    with pytest.raises(SettingRefused) as refused:
        await kit.add_own_answer(GROUP, "  ", "x", by="admin-1", name="Anna", language=None)
    assert str(refused.value) == "question: must not be empty"
    with pytest.raises(SettingRefused):
        await kit.remove_own_answer(GROUP, "nosuch", by="admin-1")
    assert await kit.own_answers(GROUP) == [kept]
    gone = await kit.remove_own_answer(GROUP, kept.id.upper(), by="admin-1")
    assert gone.id == kept.id
    assert await kit.own_answers(GROUP) == []
    history = await kit.setting_history(GROUP)
    assert [(c.key, c.old is None, c.new is None) for c in history] == [
        (f"answer:{kept.id}", True, False),
        (f"answer:{kept.id}", False, True),
    ]


async def test_ask_a_person_notifies_the_target_once_for_the_asker_alone(
    kit: PlatformKit, upstream: UpstreamSim
) -> None:
    await kit.change_setting(GROUP, "handoff", "ADMINS", by="admin-1")
    sink = KeyedSink("answer-1")
    await kit.ask(asked("Can someone pray with me?"), sink)
    assert sink.buttons == ["ask_person"]
    presses = await asyncio.gather(
        kit.person_asked(answer_key="answer-1", user_id="asker", language=None),
        kit.person_asked(answer_key="answer-1", user_id="asker", language=None),
    )
    handoffs = [press for press in presses if isinstance(press, Handoff)]
    assert len(handoffs) == 1
    assert handoffs[0].target == "admins"
    assert handoffs[0].question.user_id == "asker"
    assert handoffs[0].question.text == "Can someone pray with me?"
    assert "A person has already been asked about this answer." in presses
    other = await kit.person_asked(answer_key="answer-1", user_id="someone", language=None)
    assert other == "Only the person who asked can use this button."
    report = await kit.report(GROUP, timedelta(days=1))
    assert report.handoffs == 1


async def test_ask_a_person_turned_off_meanwhile_notifies_nobody(kit: PlatformKit) -> None:
    await kit.change_setting(GROUP, "handoff", "admins", by="admin-1")
    await kit.ask(asked("Can someone pray with me?"), KeyedSink("answer-1"))
    await kit.change_setting(GROUP, "handoff", "none", by="admin-1")
    said = await kit.person_asked(answer_key="answer-1", user_id="asker", language=None)
    assert said == "Nobody here is set up to be asked any more."


async def test_a_handoff_target_the_platform_cannot_notify_is_refused(kit: PlatformKit) -> None:
    with pytest.raises(SettingRefused) as refused:
        await kit.change_setting(GROUP, "handoff", "12345", by="admin-1")
    assert str(refused.value) == "handoff: must be one of admins or none, got '12345'"


async def test_an_untrusted_sources_card_says_so_and_the_report_counts_its_site(
    kit: PlatformKit, upstream: UpstreamSim
) -> None:
    await kit.change_setting(GROUP, "trusted_sources", "VATICAN.va", by="admin-1")
    upstream.queue(
        answer(
            ["Prayer lifts the heart [^1] and the mind [^2]."],
            [
                magisterium_citation(0, "Prayer is...", url="https://www.vatican.va/ccc"),
                magisterium_citation(1, "A blog says...", url="https://blog.example/post"),
            ],
        )
    )
    sink = KeyedSink("answer-1")
    await kit.ask(asked("What is prayer?"), sink)
    cards = [card for message in sink.thread for card in message.get("cards", [])]
    assert [(card["url"], card["trust"]) for card in cards] == [
        ("https://www.vatican.va/ccc", None),
        ("https://blog.example/post", "⚠ Not among the sources trusted here"),
    ]
    report = await kit.report(GROUP, timedelta(days=1))
    assert report.untrusted_sites == (("blog.example", 1),)


async def test_a_places_provider_gets_its_questions_with_its_key_and_others_the_default(
    answer_client: AnswerClient, upstream: UpstreamSim, register_platform: Callable[[str], None]
) -> None:
    register_platform("signal")
    async with UpstreamSim(answer(["From the library."])).running() as library:
        settings = load_settings(
            {
                "UPSTREAM_PROFILES": (
                    f'{{"library": {{"base_url": "{library.base_url}", "model": "lib-1",'
                    ' "api_key_env": "LIBRARY_API_KEY"}}'
                ),
                "LIBRARY_API_KEY": "library-secret",
            },
            env_file=None,
        )
        async with open_state("memory://") as state, open_providers(settings) as providers:
            service = AnswerService(
                client=answer_client,
                state=state,
                admission=Admission(max_in_flight=2),
                places=Places(state, defaults=settings),
                providers=providers,
            )
            kit = signal_kit(service, settings)
            await kit.change_setting(GROUP, "provider", "Library", by="admin-1")
            school, other = KeyedSink("a"), KeyedSink("b")
            await kit.ask(asked("What is grace?"), school)
            await kit.ask(
                Question(
                    text="What is hope?",
                    platform="signal",
                    user_id="u",
                    channel_id="-7",
                    server_id="-7",
                ),
                other,
            )
    assert school.text == "From the library."
    assert other.text == "Hello world."
    [asked_library] = library.requests
    assert asked_library.headers["Authorization"] == "Bearer library-secret"
    assert asked_library.body["model"] == "lib-1"
    assert [r.body["messages"][-1]["content"] for r in upstream.requests] == ["What is hope?"]
    assert "Authorization" not in upstream.requests[0].headers


async def test_a_provider_the_operator_no_longer_configures_is_never_replaced(
    kit: PlatformKit, service: AnswerService, upstream: UpstreamSim
) -> None:
    await service.state.change_place_settings({"signal:-100200": {"provider": "gone"}}, by="x")
    sink = KeyedSink("answer-1")
    outcome = await kit.ask(asked("What is grace?"), sink)
    assert outcome is not None
    assert outcome.status == "failed"
    assert "could not reach the answer service" in sink.text
    assert upstream.requests == []
