"""One damaged answer-log record (a disk's, a hand's, a write cut short) once broke every report
of its period for ``ANSWER_LOG_DAYS``: a traceback from ``citebot report``, "could not read" on
the platforms. Now it is skipped and counted, on SQLite and on Redis: the report counts the rest
and says "1 record could not be read" in the reader's language; votes, quote checks, forget-me
and the answers logged after it go on."""

from __future__ import annotations

import asyncio
import io
import json
import sqlite3
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
from redis.asyncio import Redis

from bot.__main__ import main
from bot.admission import Admission
from bot.answer import Question
from bot.i18n.wording import Wording
from bot.ops.report import build_report
from bot.service import AnswerService
from bot.state import State, open_state
from bot.upstream.client import AnswerClient
from tests.bot.presenter import PlainPresenter
from tests.bot.test_service import NOW, Sink
from tests.integrations.telegram.world import telegram_world
from tests.sim.upstream import UpstreamSim, answer

DAMAGE = {
    "cut": '{"id":"x","at":17',
    "not json": "\x00\x01garbage",
    "misshapen": '{"id": 5, "outcome": ["answered"]}',
    "a list": "[1, 2, 3]",
}


@dataclass
class Store:
    url: str
    namespace: str
    damage: str

    async def break_first(self) -> None:
        """The oldest record overwritten with damage, its indexes left as they were."""
        text = DAMAGE[self.damage]
        if self.url.startswith("sqlite"):
            with sqlite3.connect(self.url.removeprefix("sqlite:///")) as db:
                [(first,)] = db.execute("SELECT id FROM answers ORDER BY at LIMIT 1").fetchall()
                db.execute("UPDATE answers SET record = ? WHERE id = ?", (text, first))
            return
        client = Redis.from_url(self.url, decode_responses=True)
        try:
            [first] = [str(i) for i in await client.zrange(f"{self.namespace}:log:time", 0, 0)]
            await client.set(f"{self.namespace}:log:answer:{first}", text, keepttl=True)
        finally:
            await client.aclose()


@pytest.fixture(params=["sqlite", "redis"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(params=list(DAMAGE))
def store(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    if backend == "sqlite":
        return Store(f"sqlite:///{tmp_path / 'state.db'}", "citebot", str(request.param))
    url = request.getfixturevalue("redis_url")
    return Store(url, f"corrupt-{uuid.uuid4().hex}", str(request.param))


def service_on(state: State, client: AnswerClient) -> AnswerService:
    return AnswerService(client=client, state=state, admission=Admission(max_in_flight=2))


async def ask(service: AnswerService, n: int, user: str = "9") -> None:
    question = Question(
        text=f"Question {n}?", platform="discord", user_id=user, channel_id="21", server_id="111"
    )
    await service.ask(question, presenter=PlainPresenter(), sink=Sink(), pacer=NOW)


async def test_a_damaged_record_is_skipped_and_counted_and_the_rest_goes_on(
    store: Store, answer_client: AnswerClient, upstream: UpstreamSim
) -> None:
    upstream.default = answer(["An answer."])
    async with open_state(store.url, namespace=store.namespace) as state:
        service = service_on(state, answer_client)
        for n in range(3):
            await ask(service, n)
        await store.break_first()

        await ask(service, 3)  # logging goes on past it
        await service.records.vote(
            platform="discord", answer_key="discord:nothing", user_id="9", value="up"
        )
        report = await build_report(state, since=0, until=4e9, platform="discord", server="111")
        assert (report.questions, report.unreadable) == (3, 1)
        assert report.to_json()["unreadable_records"] == 1
        assert await state.forget_person("discord", "9") >= 3  # forget-me goes past it too
        after = await build_report(state, since=0, until=4e9)
        assert after.questions == 0


@pytest.mark.parametrize("backend", ["sqlite"])  # the same build_report as above on Redis
async def test_citebot_report_says_one_record_could_not_be_read_in_the_operators_language(
    store: Store,
    answer_client: AnswerClient,
    upstream: UpstreamSim,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    upstream.default = answer(["An answer."])
    async with open_state(store.url, namespace=store.namespace) as state:
        for n in range(2):
            await ask(service_on(state, answer_client), n)
    await store.break_first()

    def report(*args: str, language: str = "en") -> tuple[int, str]:
        out = io.StringIO()
        with monkeypatch.context() as patch:
            patch.setenv("STATE_URL", store.url)
            patch.setenv("CITEBOT_LANGUAGE", language)
            patch.setenv("COLUMNS", "200")
            patch.setattr("sys.stdout", out)
            code = main(["report", *args])
        return code, out.getvalue()

    for language in ("en", "fr", "pl", "zh_Hant"):
        code, out = await asyncio.to_thread(report, language=language)
        assert code == 0
        assert Wording(language=language).records_unreadable(1) in out
    code, out = await asyncio.to_thread(report, "--format", "json")
    assert (code, json.loads(out)["unreadable_records"], json.loads(out)["questions"]) == (0, 1, 1)


async def test_a_groups_report_on_telegram_says_so_instead_of_could_not_read(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'state.db'}"
    async with telegram_world({"STATE_URL": url}) as world:
        world.upstream.default = answer(["Mercy is love."])
        alice, owner = world.person("Alice"), world.person("Owner", language_code="de")
        group = await world.group()
        for text in ("What is mercy?", "What is hope?"):
            await world.tg.user_says(alice, group, f"/ask@citebot {text}")
            await world.answered(len(world.upstream.requests) + 1)
        await world.idle()
        await Store(url, "", "cut").break_first()

        asked = await world.tg.user_says(owner, group, "/report@citebot")
        await world.idle()

        [shown] = world.answer_to(asked)
        german = Wording(language="de")
        assert german.records_unreadable(1) in shown.readable
        assert german.could_not_read_report() not in shown.readable
        assert f"{german.report_labels.outcomes['answered']}: **1**" in shown.readable
