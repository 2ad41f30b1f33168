"""``citebot`` for Telegram, in a subprocess as an operator runs it: ``ask --platform telegram
--json`` prints what the bot would send, each payload a Bot API method's parameters that
Telegram takes; ``sync-commands`` sets the command menu in every language; ``run`` with a bad
setting says so in one line, never showing the token."""

from __future__ import annotations

import asyncio
import json

from bot.i18n.wording import Wording
from tests.bot.test_cli import ask_upstream, citebot, clean_env
from tests.integrations.telegram.payloads import validate_telegram_payload
from tests.sim.telegram import TelegramSim
from tests.sim.upstream import CITED, UpstreamSim

TOKEN = "123456789:AAHsimulatedTelegramBotTokenForTests0"


async def test_ask_json_prints_the_methods_the_bot_would_call() -> None:
    async with UpstreamSim().running() as upstream:
        upstream.queue(CITED)
        out = await ask_upstream(
            upstream, "Why is life sacred?", "--platform", "telegram", "--json", "--locale", "fr"
        )
    document = json.loads(out)
    assert document["platform"] == "telegram"
    [message] = document["answer"]
    assert message["method"] == "sendMessage"
    assert message["parse_mode"] == "HTML"
    assert message["text"] == (
        'Life is sacred from conception to natural death<a href="https://example.org/doc/1">¹</a>.'
    )
    assert message["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == "fb:up"
    [cards] = document["thread"]
    assert cards["method"] == "sendRichMessage"
    assert "Ça étaye" not in cards["rich_message"]["html"]
    assert "<summary>Étaye</summary>" in cards["rich_message"]["html"]
    assert [c["number"] for c in document["citations"]] == [1]
    for payload in (*document["answer"], *document["thread"]):
        assert validate_telegram_payload(payload) == []


async def test_sync_commands_sets_the_menu_in_every_language() -> None:
    async with TelegramSim() as tg:
        env = {"TELEGRAM_BOT_TOKEN": tg.token, "TELEGRAM_API_BASE_URL": tg.base_url}
        # In a thread: the simulator answers on this test's event loop meanwhile.
        result = await asyncio.to_thread(citebot, "sync-commands", env=env)
        assert result.returncode == 0, result.stderr
        menus = {
            (json.loads(scope)["type"], language): [c["command"] for c in menu]
            for (scope, language), menu in tg.commands.items()
        }
        assert menus["default", ""] == ["ask", "check", "forget_me", "help"]
        assert menus["all_chat_administrators", ""] == [
            "ask",
            "check",
            "settings",
            "report",
            "forget_me",
            "help",
        ]
        languages = {"", "de", "es", "fr", "it", "nl", "pl", "pt", "zh"}
        scopes = ("default", "all_chat_administrators")
        assert set(menus) == {(scope, code) for scope in scopes for code in languages}
        german = tg.commands['{"type": "all_chat_administrators"}', "de"]
        assert [c["description"] for c in german] == [
            "Eine Frage stellen und eine Antwort mit ihren Quellen erhalten",
            Wording(language="de").check_with_sources(),
            Wording(language="de").settings_command(),
            Wording(language="de").report_command(),
            Wording(language="de").forget_me_command(),
            Wording(language="de").help_command(),
        ]
        tg.assert_valid()
        assert tg.token not in result.stderr + result.stdout


def test_a_bad_telegram_setting_is_one_line_that_hides_the_token() -> None:
    for env, said in (
        ({"TELEGRAM_BOT_TOKEN": "not a token"}, "TELEGRAM_BOT_TOKEN: must be the token BotFather"),
        (
            {"TELEGRAM_BOT_TOKEN": TOKEN, "TELEGRAM_API_BASE_URL": "https://api.telegram.org/bot"},
            "TELEGRAM_API_BASE_URL: must be the Bot API server's root, without /bot",
        ),
        (
            {"TELEGRAM_BOT_TOKEN": TOKEN, "TELEGRAM_CHAT_ALLOWLIST": "-100123, parish"},
            "TELEGRAM_CHAT_ALLOWLIST: must be comma-separated chat ids",
        ),
        (
            {"TELEGRAM_BOT_TOKEN": TOKEN, "TELEGRAM_WEBHOOK_SECRET": "has spaces"},
            "TELEGRAM_WEBHOOK_SECRET: must be 1-256 characters of A-Z, a-z, 0-9, _ and -",
        ),
        ({"TELEGRAM_WEBHOOK_URL": "https://bot.example/telegram"}, "TELEGRAM_BOT_TOKEN is missing"),
    ):
        result = citebot("run", env={**env, "UPSTREAM_BASE_URL": "demo"})
        assert result.returncode == 2, result.stderr
        [line] = result.stderr.strip().splitlines()
        assert said in line
        assert TOKEN.split(":")[1] not in line
        assert "has spaces" not in line


def test_manifest_prints_the_command_list_botfather_takes() -> None:
    result = citebot("manifest", "telegram")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "ask - Ask a question and get an answer with its sources",
        "check - Check with sources",
        "forget_me - Delete everything citebot keeps about you",
        "help - How to ask citebot a question",
    ]


def test_run_names_telegram_among_the_ways_to_start() -> None:
    result = citebot("run", env=clean_env({"UPSTREAM_BASE_URL": "demo"}))
    assert result.returncode == 2
    assert "TELEGRAM_BOT_TOKEN" in result.stderr
