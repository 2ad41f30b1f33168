"""The limits the simulator reads out of ``api.json``'s descriptions: every one it found, listed
in ``limits.txt`` (so a newer spec's changes show as a diff there), and every range written in a
description accounted for, read as a limit or named here as not being one."""

from __future__ import annotations

import re
from pathlib import Path

from tests.sim.telegram.limits import Limit, choices, limits
from tests.sim.telegram.spec import all_fields, fields_of, method

LISTED = Path(__file__).with_name("limits.txt")

NOT_LIMITS = (
    r"ISO \d+-\d",  # "ISO 639-1", "ISO 3166-1": standards' names
    r"\+1-212-555-0123",  # an example phone number
    r"values? \d+-\d+ for",  # a dice's values for each emoji, not a field's range
    r", \d+-\d+ for \"",
    r"\d+ - \d+ \* 24 \* 60",  # minutes of a week, written as arithmetic
)


def test_every_limit_found_is_listed() -> None:
    found = [limit.describe() for limit in limits()]
    assert found == LISTED.read_text(encoding="utf-8").splitlines()


def test_every_range_in_a_description_is_read_or_known_not_to_be_a_limit() -> None:
    read = {limit.where for limit in limits()}
    missed = [
        f"{field.where}: {match.group(0)!r}"
        for field in all_fields()
        for match in re.finditer(r"\d+\s*-\s*\d+", field.description)
        if field.where not in read
        and not any(
            re.search(pattern, field.description[max(match.start() - 12, 0) : match.end() + 12])
            for pattern in NOT_LIMITS
        )
    ]
    assert missed == []


def test_the_limits_a_bot_meets_are_read_as_telegram_counts_them() -> None:
    def of(owner: str, name: str) -> list[Limit]:
        spec = method(owner)
        field = spec.field(name) if spec else next(f for f in fields_of(owner) if f.name == name)
        assert field is not None
        return list(limits(field))

    assert of("sendMessage", "text") == [
        Limit("sendMessage.text", "characters", 1, 4096, after_entities=True)
    ]
    assert of("editMessageText", "text") == [
        Limit("editMessageText.text", "characters", 1, 4096, after_entities=True)
    ]
    assert of("sendMessageDraft", "text") == [
        Limit("sendMessageDraft.text", "characters", 0, 4096, after_entities=True)
    ]
    assert of("InlineKeyboardButton", "callback_data") == [
        Limit("InlineKeyboardButton.callback_data", "bytes", 1, 64)
    ]
    assert of("answerCallbackQuery", "text") == [
        Limit("answerCallbackQuery.text", "characters", 0, 200)
    ]
    assert of("getUpdates", "limit") == [Limit("getUpdates.limit", "number", 1, 100)]
    assert of("setMyCommands", "commands") == [Limit("setMyCommands.commands", "items", 0, 100)]
    assert of("BotCommand", "command") == [Limit("BotCommand.command", "characters", 1, 32)]
    assert of("setWebhook", "secret_token") == [
        Limit("setWebhook.secret_token", "charset", pattern="[A-Za-z0-9_-]*"),
        Limit("setWebhook.secret_token", "characters", 1, 256),
    ]


def test_a_limit_counts_code_points_bytes_or_items() -> None:
    text = Limit("x", "characters", 1, 2)
    assert [text.broken_by(s) for s in ("😀😀", "😀😀😀", "")] == [False, True, True]
    data = Limit("x", "bytes", 1, 64)
    assert [data.broken_by(s) for s in ("é" * 32, "é" * 32 + "a")] == [False, True]
    assert Limit("x", "items", 0, 1).broken_by([1, 2])
    assert Limit("x", "number", 0, 1500).broken_by(1500.5)


def test_the_values_descriptions_enumerate_are_read() -> None:
    action = method("sendChatAction")
    assert action is not None
    field = action.field("action")
    assert field is not None
    assert choices(field)[:3] == ("typing", "upload_photo", "record_video")
    entity_type = next(f for f in fields_of("MessageEntity") if f.name == "type")
    assert {"bold", "text_link", "expandable_blockquote", "date_time"} <= set(choices(entity_type))
    scope_type = next(f for f in fields_of("BotCommandScopeChat") if f.name == "type")
    assert choices(scope_type) == ("chat",)
    style = next(f for f in fields_of("InlineKeyboardButton") if f.name == "style")
    assert choices(style) == ("danger", "success", "primary")
