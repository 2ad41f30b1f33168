"""Each place's settings and the record of their changes, in every backend."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from bot.state import SettingChange, State
from tests.bot.state.conftest import shared_backends


async def test_set_keys_are_read_back_per_place(state: State) -> None:
    await state.change_place_settings(
        {"discord:1": {"language": "fr", "enabled": "off"}, "slack:T1/C2": {"auto_answer": "on"}},
        by="operator",
    )
    assert await state.place_settings(["discord:1", "discord:1/9", "slack:T1/C2"]) == {
        "discord:1": {"language": "fr", "enabled": "off"},
        "slack:T1/C2": {"auto_answer": "on"},
    }
    assert await state.every_place_settings() == {
        "discord:1": {"language": "fr", "enabled": "off"},
        "slack:T1/C2": {"auto_answer": "on"},
    }


async def test_a_change_is_recorded_with_who_when_and_old_to_new(state: State) -> None:
    before = time.time()
    await state.change_place_settings({"discord:1": {"language": "fr"}}, by="operator")
    made = await state.change_place_settings(
        {"discord:1": {"language": "de", "disclaimer": "Fr. Anthony answers 💬"}}, by="42"
    )
    assert [(c.by, c.place, c.key, c.old, c.new) for c in made] == [
        ("42", "discord:1", "language", "fr", "de"),
        ("42", "discord:1", "disclaimer", None, "Fr. Anthony answers 💬"),
    ]
    history = await state.settings_history("discord:1")
    assert [(c.by, c.key, c.old, c.new) for c in history] == [
        ("operator", "language", None, "fr"),
        ("42", "language", "fr", "de"),
        ("42", "disclaimer", None, "Fr. Anthony answers 💬"),
    ]
    assert all(before - 1 <= change.at <= time.time() + 1 for change in history)


async def test_unsetting_removes_the_key_and_a_place_left_empty(state: State) -> None:
    await state.change_place_settings({"slack:T1": {"language": "fr"}}, by="operator")
    made = await state.change_place_settings({"slack:T1": {"language": None}}, by="U7")
    assert made[0].old == "fr"
    assert made[0].new is None
    assert await state.place_settings(["slack:T1"]) == {}
    assert await state.every_place_settings() == {}
    assert [c.new for c in await state.settings_history("slack:T1")] == ["fr", None]


async def test_setting_the_same_value_again_records_nothing(state: State) -> None:
    await state.change_place_settings({"discord:1": {"enabled": "off"}}, by="operator")
    assert await state.change_place_settings({"discord:1": {"enabled": "off"}}, by="7") == []
    assert await state.change_place_settings({"discord:1": {"quote_check": None}}, by="7") == []
    assert len(await state.settings_history("discord:1")) == 1


async def test_the_history_of_every_place_is_one_timeline(state: State) -> None:
    await state.change_place_settings({"discord:1": {"enabled": "off"}}, by="a")
    await asyncio.sleep(0.01)
    await state.change_place_settings({"slack:T1": {"enabled": "off"}}, by="b")
    await asyncio.sleep(0.01)
    await state.change_place_settings({"discord:1": {"enabled": "on"}}, by="c")
    assert [(c.by, c.place) for c in await state.settings_history()] == [
        ("a", "discord:1"),
        ("b", "slack:T1"),
        ("c", "discord:1"),
    ]


async def test_a_place_keeps_only_its_last_changes(state: State) -> None:
    for n in range(1, 8):
        await state.change_place_settings(
            {"discord:1": {"daily_questions": str(n)}}, by="a", keep=3
        )
    await state.change_place_settings({"discord:2": {"enabled": "off"}}, by="a", keep=3)
    history = await state.settings_history("discord:1")
    assert [change.new for change in history] == ["5", "6", "7"]
    assert len(await state.settings_history()) == 4


async def test_changes_older_than_the_history_s_time_are_dropped(state: State) -> None:
    await state.change_place_settings({"discord:1": {"enabled": "off"}}, by="a")
    await asyncio.sleep(0.3)
    await state.change_place_settings({"discord:1": {"enabled": "on"}}, by="b", history_ttl=0.2)
    assert [c.by for c in await state.settings_history("discord:1", history_ttl=0.2)] == ["b"]
    await asyncio.sleep(0.3)
    assert await state.settings_history(history_ttl=0.2) == []
    assert await state.place_settings(["discord:1"]) == {"discord:1": {"enabled": "on"}}


async def test_settings_are_kept_as_given_whatever_their_characters(state: State) -> None:
    text = 'Réponses générées — "vérifiez" {les} sources \\ 回答 🙏'
    await state.change_place_settings({"telegram:-1001": {"disclaimer": text}}, by="operator")
    assert await state.place_settings(["telegram:-1001"]) == {
        "telegram:-1001": {"disclaimer": text}
    }
    (change,) = await state.settings_history("telegram:-1001")
    assert change == SettingChange(
        at=change.at, by="operator", place="telegram:-1001", key="disclaimer", old=None, new=text
    )


@shared_backends
async def test_a_change_by_one_worker_is_read_by_another(open_states: Callable[[], State]) -> None:
    one, other = open_states(), open_states()
    await one.change_place_settings({"discord:1/2": {"language": "pl"}}, by="operator")
    assert await other.place_settings(["discord:1/2"]) == {"discord:1/2": {"language": "pl"}}
    assert [c.new for c in await other.settings_history()] == ["pl"]


@shared_backends
async def test_concurrent_changes_each_see_the_value_they_replace(
    open_states: Callable[[], State],
) -> None:
    workers = [open_states() for _ in range(4)]
    await asyncio.gather(
        *(
            worker.change_place_settings({"discord:1": {"daily_questions": str(n)}}, by=str(n))
            for n, worker in enumerate(workers, start=1)
            for _ in range(3)
        )
    )
    history = await workers[0].settings_history("discord:1")
    # every change replaced the one before it: old -> new links up with no gap or overlap
    assert [change.old for change in history[1:]] == [change.new for change in history[:-1]]
    assert history[0].old is None
    final = await workers[0].place_settings(["discord:1"])
    assert final == {"discord:1": {"daily_questions": history[-1].new}}
