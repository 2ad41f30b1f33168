"""The kit follows a chain of replies to its conversation: a reply to any message citebot posted
for a thread continues that thread, on every worker sharing the state, for as long as
conversations are remembered."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.admission import Admission
from bot.kit import PlatformKit
from bot.platforms import Platform
from bot.service import AnswerService, Limits
from bot.state import State, open_state
from bot.upstream.client import AnswerClient
from config import PlatformSettings, load_settings
from tests.bot.presenter import PlainPresenter

SETTINGS = load_settings({}, env_file=None)


def service(client: AnswerClient, store: State, *, memory_ttl: float = 3600.0) -> AnswerService:
    return AnswerService(
        client=client,
        state=store,
        admission=Admission(max_in_flight=1),
        limits=Limits(memory_ttl=memory_ttl),
    )


def kit(service: AnswerService, name: str) -> PlatformKit:
    platform: Platform[PlatformSettings] = Platform(name=name, presenter=PlainPresenter)
    return PlatformKit(service, platform, environment=PlatformSettings(), settings=SETTINGS)


async def test_a_reply_to_any_message_of_a_thread_finds_it_on_another_worker(
    answer_client: AnswerClient, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'state.db'}"
    async with open_state(url) as first_store, open_state(url) as second_store:
        first, second = (
            kit(service(answer_client, store), "chat") for store in (first_store, second_store)
        )
        await first.join_thread("-100:41", "40", person="5", server="-100")
        await first.join_thread("-100:42", "40", person="6", server="-100")
        assert await second.thread_of("-100:42") == "40"
        assert await second.thread_of("-100:41") == "40"
        assert await second.thread_of("-100:43") is None


async def test_threads_are_the_platforms_own_and_last_as_long_as_memory(
    answer_client: AnswerClient,
) -> None:
    async with open_state("memory://") as store:
        shared = service(answer_client, store, memory_ttl=0.2)
        chat, other = kit(shared, "chat"), kit(shared, "other")
        await chat.join_thread("7:1", "1", person="7", server="7")
        assert await other.thread_of("7:1") is None
        assert await chat.thread_of("7:1") == "1"
        await asyncio.sleep(0.3)
        assert await chat.thread_of("7:1") is None
