"""A place's effective settings: its channel's over its server's over the worker's
environment, and where each came from."""

from __future__ import annotations

import pytest

from bot.places import Place, Places, SettingRefused
from bot.state import State
from config import Settings
from tests.places import at


async def test_a_place_with_no_settings_has_the_environment_s(
    state: State, environment: Settings
) -> None:
    here = await Places(state, defaults=environment).effective("discord", "1", "2")
    assert here.language == "de"
    assert here.quote_check is False
    assert here.enabled is True
    assert here.daily_questions is None
    assert set(here.set_in.values()) == {None}


async def test_a_channel_s_setting_overrides_its_server_s(
    state: State, environment: Settings
) -> None:
    places = Places(state, defaults=environment)
    await places.set(at("discord:1"), "language", "fr", by="admin")
    await places.set(at("discord:1"), "disclaimer", "Ask Fr. Anthony", by="admin")
    await places.set(at("discord:1/2"), "language", "it", by="admin")
    await places.set(at("discord:1/2"), "quote_check", "on", by="admin")

    channel = await places.effective("discord", "1", "2")
    assert (channel.language, channel.quote_check, channel.disclaimer) == (
        "it",
        True,
        "Ask Fr. Anthony",
    )
    assert channel.set_in["language"] == Place("discord", "1", "2")
    assert channel.set_in["disclaimer"] == Place("discord", "1")
    assert channel.set_in["enabled"] is None

    other_channel = await places.effective("discord", "1", "3")
    assert (other_channel.language, other_channel.quote_check) == ("fr", False)
    server = await places.effective("discord", "1")
    assert server.language == "fr"
    elsewhere = await places.effective("discord", "9", "2")
    assert elsewhere.language == "de"


async def test_a_channel_can_set_none_over_its_server_s_limit(
    state: State, environment: Settings
) -> None:
    places = Places(state, defaults=environment)
    await places.set(at("slack:T0123ABC"), "daily_questions", "30", by="U1")
    await places.set(at("slack:T0123ABC/C0456DEF"), "daily_questions", "none", by="U1")
    await places.set(at("slack:T0123ABC"), "disclaimer", "Generated answers", by="U1")
    await places.set(at("slack:T0123ABC/C0456DEF"), "disclaimer", "none", by="U1")
    channel = await places.effective("slack", "T0123ABC", "C0456DEF")
    assert channel.daily_questions is None
    assert channel.disclaimer is None
    assert channel.set_in["daily_questions"] == Place("slack", "T0123ABC", "C0456DEF")
    assert (await places.effective("slack", "T0123ABC", "C0789GHI")).daily_questions == 30


async def test_unsetting_gives_the_place_its_server_s_value_again(
    state: State, environment: Settings
) -> None:
    places = Places(state, defaults=environment)
    await places.set(at("discord:1"), "enabled", "off", by="a")
    await places.set(at("discord:1/2"), "enabled", "on", by="a")
    assert (await places.effective("discord", "1", "2")).enabled is True
    change = await places.unset(at("discord:1/2"), "enabled", by="a")
    assert change is not None
    assert (change.old, change.new) == ("on", None)
    assert (await places.effective("discord", "1", "2")).enabled is False
    assert await places.unset(at("discord:1/2"), "enabled", by="a") is None


async def test_a_direct_message_has_the_environment_s_settings(
    state: State, environment: Settings
) -> None:
    places = Places(state, defaults=environment)
    await places.set(at("discord:1"), "language", "fr", by="a")
    direct = await places.effective("discord", None)
    assert direct.language == "de"


async def test_a_bad_change_is_refused_and_changes_nothing(
    state: State, environment: Settings
) -> None:
    places = Places(state, defaults=environment)
    await places.set(at("discord:1"), "language", "fr", by="a")
    for place, key, value in [
        ("discord:1", "language", "klingon"),
        ("discord:1", "langauge", "de"),
        ("discord:one", "language", "de"),
    ]:
        with pytest.raises(SettingRefused):
            await places.set(at(place), key, value, by="a")
    assert (await places.effective("discord", "1")).language == "fr"
    assert len(await places.history()) == 1


async def test_a_stored_value_that_no_longer_reads_is_passed_over(
    state: State, environment: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    """A value stored by another version (a catalogue since removed) does not stop answers:
    the layer below applies, and the operator reads why in the log."""
    await state.change_place_settings(
        {"discord:1/2": {"language": "tlh"}, "discord:1": {"language": "fr"}}, by="a"
    )
    here = await Places(state, defaults=environment).effective("discord", "1", "2")
    assert here.language == "fr"
    assert "discord:1/2: language: must be one of" in caplog.text


async def test_a_change_made_here_is_applied_here_at_once(
    state: State, environment: Settings
) -> None:
    places = Places(state, defaults=environment, ttl=3600)
    assert (await places.effective("telegram", "-1001")).enabled is True
    await state.change_place_settings({"telegram:-1001": {"enabled": "off"}}, by="x")
    # another worker's change waits for the cache (an hour here)...
    assert (await places.effective("telegram", "-1001")).enabled is True
    # ...this one's is seen at once
    await places.set(at("discord:5"), "enabled", "off", by="a")
    assert (await places.effective("discord", "5")).enabled is False
