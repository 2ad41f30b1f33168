"""Places as admins and operators write them: each platform's forms, and a refusal that shows
them."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.i18n.wording import Wording
from bot.places import Place, SettingRefused
from bot.platforms import place_forms


def parse_place(written: str) -> Place:
    return place_forms().parse(written)


@pytest.mark.parametrize(
    ("written", "place"),
    [
        ("discord:81384788765712384", Place("discord", "81384788765712384")),
        ("discord:8138/4199", Place("discord", "8138", "4199")),
        ("slack:T0123ABC", Place("slack", "T0123ABC")),
        ("slack:T0123ABC/C0456DEF", Place("slack", "T0123ABC", "C0456DEF")),
        ("slack:t0123abc/g0456def", Place("slack", "T0123ABC", "G0456DEF")),
        ("slack:E0ENTERPRISE", Place("slack", "E0ENTERPRISE")),
        ("  Discord:1 ", Place("discord", "1")),
        ("telegram:-1001234567890", Place("telegram", "-1001234567890")),
        ("telegram:42", Place("telegram", "42")),
    ],
)
def test_a_place_is_read_as_its_platform_writes_its_ids(written: str, place: Place) -> None:
    assert parse_place(written) == place
    assert str(parse_place(str(place))) == str(place)


def test_a_channel_is_in_its_server() -> None:
    channel = parse_place("discord:1/2")
    assert str(channel) == "discord:1/2"
    assert channel.server_place == Place("discord", "1")
    assert parse_place("discord:1").server_place == Place("discord", "1")


FORMS = {
    "discord": "discord:GUILD_ID or discord:GUILD_ID/CHANNEL_ID",
    "slack": "slack:TEAM_ID or slack:TEAM_ID/CHANNEL_ID",
    "telegram": "telegram:CHAT_ID",
}


@pytest.mark.parametrize(
    "written",
    [
        *("discord:abc", "discord:1/", "discord:1/2/3", "discord", "discord:"),
        *("slack:C0123/C0456", "telegram:@parish", "telegram:-100/7"),
    ],
)
def test_a_malformed_place_is_refused_with_its_platform_s_forms(written: str) -> None:
    with pytest.raises(SettingRefused) as refused:
        parse_place(written)
    platform = written.split(":")[0]
    assert str(refused.value) == f"{written}: not a place; write {FORMS[platform]}"


@pytest.mark.parametrize("written", ["irc:1", "terminal:1", "1234"])
def test_a_platform_without_places_is_refused_with_every_place_s_form(written: str) -> None:
    with pytest.raises(SettingRefused) as refused:
        parse_place(written)
    assert str(refused.value) == (
        f"{written}: not a place; write discord:GUILD_ID, discord:GUILD_ID/CHANNEL_ID,"
        " slack:TEAM_ID, slack:TEAM_ID/CHANNEL_ID, or telegram:CHAT_ID"
    )


def test_the_terminal_is_a_platform_without_places() -> None:
    assert "terminal" not in place_forms()
    assert "discord" in place_forms()
    assert "slack" in place_forms()
    assert "telegram" in place_forms()


def test_a_platform_another_distribution_installs_has_the_places_its_entry_describes(
    register_platform: Callable[[str], None],
) -> None:
    assert "signal" not in place_forms()
    register_platform("signal")
    assert "signal" in place_forms()
    assert parse_place("signal:-1001234567890") == Place("signal", "-1001234567890")
    assert parse_place("signal:987654321") == Place("signal", "987654321")
    assert "signal:CHAT_ID" in place_forms().forms()
    # its entry describes no channels: a place is its group alone
    with pytest.raises(SettingRefused, match=r"write signal:CHAT_ID$"):
        parse_place("signal:-1001234567890/5")


def test_a_refused_place_is_said_in_the_admin_s_language() -> None:
    with pytest.raises(SettingRefused) as refused:
        parse_place("discord:abc")
    assert refused.value.said(Wording("fr")) == (
        "discord:abc\u00a0: ce n’est pas un lieu\u00a0; écrivez discord:GUILD_ID ou"
        " discord:GUILD_ID/CHANNEL_ID"
    )
    assert refused.value.said(Wording("zh_Hans")) == (
        "discord:abc：不是有效的位置；请写成 discord:GUILD_ID或discord:GUILD_ID/CHANNEL_ID"
    )
