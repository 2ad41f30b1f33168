"""The kit runs every way in's steps (heed, claim, words, fence, then act or refuse), and asking
refuses by itself where a place may not be answered in: an adapter that checks nothing, as the
smallest one below, still cannot answer there."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from bot.adapter import Admins, Admitted, Arrival, Gate, Heard, Question, Venue
from bot.admission import Admission
from bot.i18n.wording import Wording
from bot.kit import PlatformKit
from bot.platforms import Platform, load_platform
from bot.service import AnswerService
from bot.state import open_state
from bot.upstream.client import AnswerClient
from config import PlatformSettings, load_settings
from tests.bot.presenter import PlainPresenter
from tests.bot.test_service import NOW, Sink
from tests.sim.upstream import UpstreamSim, answer

GROUP = Venue(server="-100200")
ELSEWHERE = Venue(server="-100300")


class Fenced(PlatformSettings):
    """A platform whose allowlist names one group."""

    @property
    def allowed_servers(self) -> tuple[str, ...]:
        return ("-100200",)


@pytest.fixture
async def service(answer_client: AnswerClient) -> AsyncIterator[AnswerService]:
    async with open_state("memory://") as state:
        yield AnswerService(client=answer_client, state=state, admission=Admission(max_in_flight=2))


@pytest.fixture
def platform(register_platform: Callable[[str], None]) -> Platform[Any]:
    register_platform("signal")
    return load_platform("signal")


def fenced_kit(service: AnswerService, platform: Platform[Any]) -> PlatformKit:
    return PlatformKit(
        service,
        platform,
        environment=Fenced(),
        settings=load_settings({}, env_file=None),
        presenter=PlainPresenter(),
        pacer=NOW,
    )


@pytest.fixture
def kit(service: AnswerService, platform: Platform[Any]) -> PlatformKit:
    return fenced_kit(service, platform)


class Way:
    """What one way in did: acted (with which words), or said a refusal."""

    def __init__(self) -> None:
        self.acted: list[Admitted] = []
        self.said: list[str] = []

    async def act(self, admitted: Admitted) -> None:
        self.acted.append(admitted)

    async def refuse(self, words: str) -> None:
        self.said.append(words)


async def take(
    kit: PlatformKit,
    venue: Venue,
    *,
    key: str,
    heard: Heard = Heard.MENTION,
    gate: Gate = "askers",
    language: str | None = None,
) -> Way:
    way = Way()
    arrival = Arrival(keys=(key,), venue=venue, heard=heard, language=language)
    await kit.take(arrival, way.act, gate=gate, refuse=way.refuse)
    return way


def asked_in(group: str, text: str = "What is grace?") -> Question:
    return Question(text=text, platform="signal", user_id="U1", channel_id=group, server_id=group)


async def test_an_adapter_that_checks_nothing_cannot_answer_where_the_place_is_off(
    kit: PlatformKit, upstream: UpstreamSim
) -> None:
    """The smallest adapter: a question straight into the kit, no claim, no fence, no
    settings read."""
    upstream.queue(answer(["Grace is a gift."]))
    await kit.change_setting(GROUP, "enabled", "off", by="admin")
    await kit.change_setting(GROUP, "language", "de", by="admin")
    off, outside = Sink(), Sink()
    assert await kit.ask(asked_in("-100200"), off) is None
    assert await kit.ask(asked_in("-100300"), outside) is None
    assert off.shown == [Wording("de").not_allowed_here()]
    assert outside.shown == [Wording().not_allowed_here()]
    assert upstream.requests == []

    await kit.change_setting(GROUP, "enabled", "on", by="admin")
    answered = Sink()
    outcome = await kit.ask(asked_in("-100200"), answered)
    assert outcome is not None
    assert outcome.status == "answered"
    assert answered.shown[-1].startswith("Grace is a gift.")


async def test_a_question_outside_the_allowlist_is_refused_in_the_askers_words(
    kit: PlatformKit,
) -> None:
    outside = await take(kit, ELSEWHERE, key="1", language="fr")
    assert outside.said == [Wording("fr").not_allowed_here()]
    assert outside.acted == []
    inside = await take(kit, GROUP, key="2", language="fr")
    assert [admitted.words.language for admitted in inside.acted] == ["fr"]
    assert [admitted.language for admitted in inside.acted] == ["fr"]


async def test_an_event_delivered_twice_is_taken_once(kit: PlatformKit) -> None:
    first = await take(kit, GROUP, key="update:7")
    again = await take(kit, GROUP, key="update:7")
    assert len(first.acted) == 1
    assert (again.acted, again.said) == ([], [])


async def test_what_names_nobody_is_answered_as_the_place_says_and_never_refused_aloud(
    kit: PlatformKit,
) -> None:
    """``follow_ups_without_mention`` (on by default) decides a reply to citebot;
    ``auto_answer`` (off by default) a new post; a mention is always heard. Where citebot may
    not answer, only what named it is told so."""
    assert len((await take(kit, GROUP, key="1", heard=Heard.REPLY)).acted) == 1
    assert (await take(kit, GROUP, key="2", heard=Heard.POST)).acted == []
    await kit.change_setting(GROUP, "auto_answer", "on", by="admin")
    await kit.change_setting(GROUP, "follow_ups_without_mention", "off", by="admin")
    assert len((await take(kit, GROUP, key="3", heard=Heard.POST)).acted) == 1
    assert (await take(kit, GROUP, key="4", heard=Heard.REPLY)).acted == []
    assert len((await take(kit, GROUP, key="5", heard=Heard.MENTION)).acted) == 1

    await kit.change_setting(GROUP, "enabled", "off", by="admin")
    quiet = await take(kit, GROUP, key="6", heard=Heard.POST)
    named = await take(kit, GROUP, key="7", heard=Heard.MENTION)
    assert (quiet.acted, quiet.said) == ([], [])
    assert (named.acted, named.said) == ([], [Wording().not_allowed_here()])


async def test_a_reply_is_confirmed_only_where_the_place_heeds_it_and_before_the_claim(
    kit: PlatformKit,
) -> None:
    asked: list[str] = []

    async def ours() -> bool:
        asked.append("ours?")
        return False

    way = Way()
    reply = Arrival(keys=("r1",), venue=GROUP, heard=Heard.REPLY, confirm=ours)
    await kit.take(reply, way.act, refuse=way.refuse)
    assert (way.acted, asked) == ([], ["ours?"])
    assert len((await take(kit, GROUP, key="r1", heard=Heard.REPLY)).acted) == 1  # unclaimed

    await kit.change_setting(GROUP, "follow_ups_without_mention", "off", by="admin")
    await kit.take(replace_keys(reply, "r2"), way.act, refuse=way.refuse)
    assert asked == ["ours?"]  # not heeded: nothing asked of the platform


def replace_keys(arrival: Arrival, key: str) -> Arrival:
    return Arrival(keys=(key,), venue=arrival.venue, heard=arrival.heard, confirm=arrival.confirm)


async def test_an_admins_command_passes_the_allowlist_and_the_platforms_admins_not_enabled(
    kit: PlatformKit,
) -> None:
    """The admin check, once for every platform: outside any server, outside the allowlist
    (the platform is not even asked who the person is), then the platform's own admins; a
    place turned off is still an admin's to turn on again."""
    asked: list[str] = []

    def admins(answer: bool) -> Admins:
        async def is_admin() -> bool:
            asked.append("admin?")
            return answer

        return Admins(is_admin=is_admin)

    words = Wording()
    direct = await take(kit, Venue(direct=True), key="1", gate=admins(True))
    outside = await take(kit, ELSEWHERE, key="2", gate=admins(True))
    report = await take(
        kit, Venue(), key="3", gate=Admins(is_admin=admins(True).is_admin, duty="report")
    )
    assert direct.said == [words.no_place_settings_here()]
    assert outside.said == [words.not_allowed_here()]
    assert report.said == [words.no_report_here()]
    assert asked == []

    member = await take(kit, GROUP, key="4", gate=admins(False))
    assert (member.acted, member.said) == ([], [words.admins_only()])
    await kit.change_setting(GROUP, "enabled", "off", by="admin")
    admin = await take(kit, GROUP, key="5", gate=admins(True))
    assert len(admin.acted) == 1
    assert asked == ["admin?", "admin?"]


async def test_a_persons_forget_me_passes_everywhere(kit: PlatformKit) -> None:
    await kit.change_setting(GROUP, "enabled", "off", by="admin")
    for key, venue in (("1", GROUP), ("2", ELSEWHERE), ("3", Venue(direct=True))):
        way = await take(kit, venue, key=key, gate="everyone")
        assert (len(way.acted), way.said) == (1, [])


async def test_spawned_steps_run_as_a_task_the_kit_drains(kit: PlatformKit) -> None:
    way = Way()
    await kit.take(Arrival(keys=("s1",), venue=GROUP), way.act, spawn=True)
    assert way.acted == []  # returned before acting
    await kit.drain()
    assert len(way.acted) == 1
