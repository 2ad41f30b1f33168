"""``citebot settings`` as an operator runs it, on the workers' store: what it prints, what it
changes, and what it refuses (exit 2, one line, nothing changed)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from bot.places import Places
from bot.state import open_state
from config import load_settings
from tests.bot.places.conftest import Citebot, CommandLine
from tests.bot.test_cli import citebot
from tests.sim.redis_server import RedisProcess, free_port


@pytest.fixture
def settings_cli(command_line: CommandLine) -> Citebot:
    """``citebot settings ...`` (:func:`~tests.bot.places.conftest.command_line`)."""
    return functools.partial(command_line, "settings")


def test_set_then_show_a_place_and_every_place(settings_cli: Citebot) -> None:
    ran = settings_cli("set", "discord:1", "language", "pt-BR")
    assert (ran.code, ran.out, ran.err) == (0, "discord:1 language: not set → pt_BR\n", "")
    settings_cli("set", "discord:1/2", "disclaimer", "Answers", "can", "be", "wrong.")
    settings_cli("set", "slack:t0123abc", "daily_questions", "30")

    shown = settings_cli("show", "discord:1/2")
    assert shown.code == 0
    assert shown.out.splitlines() == [
        "enabled\ton\tdefault",
        "language\tpt_BR\tdiscord:1",
        "private_by_default\toff\tdefault",
        "follow_ups_without_mention\ton\tdefault",
        "auto_answer\toff\tdefault",
        "daily_questions\tnone\tdefault",
        "daily_questions_per_person\tnone\tdefault",
        "daily_tokens\tnone\tdefault",
        "daily_cost\tnone\tdefault",
        "quote_check\ton\tdefault",
        "disclaimer\tAnswers can be wrong.\tdiscord:1/2",
        "handoff\tnone\tdefault",
        "trusted_sources\tnone\tdefault",
        "provider\tnone\tdefault",
    ]
    assert settings_cli("show").out.splitlines() == [
        "discord:1\tlanguage\tpt_BR",
        "discord:1/2\tdisclaimer\tAnswers can be wrong.",
        "slack:T0123ABC\tdaily_questions\t30",
    ]


def test_show_in_a_terminal_is_a_table(settings_cli: Citebot) -> None:
    settings_cli("set", "discord:1", "auto_answer", "on")
    settings_cli("set", "discord:1", "disclaimer", "[/b] [red]Not[/red] markup")
    terminal = {"TTY_COMPATIBLE": "1", "COLUMNS": "120", "NO_COLOR": "1"}
    lines = settings_cli("show", "discord:1", env=terminal).out.splitlines()
    assert lines[0].startswith("┏")
    assert "Setting" in lines[1]
    assert "Set in" in lines[1]
    assert any("auto_answer" in line and "discord:1" in line for line in lines)
    assert any("[/b] [red]Not[/red] markup" in line for line in lines)
    every = settings_cli("show", env=terminal).out
    assert "[/b] [red]Not[/red] markup" in every


def test_the_defaults_shown_are_the_environment_s(settings_cli: Citebot) -> None:
    shown = settings_cli("show", "discord:1", env={"CITEBOT_LANGUAGE": "de", "QUOTE_CHECK": "off"})
    rows = dict(line.split("\t", 1) for line in shown.out.splitlines())
    assert rows["language"] == "de\tStandard"  # the operator reads German too
    assert rows["quote_check"] == "off\tStandard"


def test_unset_and_a_change_that_changes_nothing(settings_cli: Citebot) -> None:
    settings_cli("set", "discord:1", "enabled", "off")
    again = settings_cli("set", "discord:1", "enabled", "OFF")
    assert (again.code, again.out, again.err) == (0, "", "Nothing changed.\n")
    unset = settings_cli("unset", "discord:1", "enabled")
    assert unset.out == "discord:1 enabled: off → not set\n"
    assert settings_cli("show").err == "No place has settings yet.\n"


def test_history_says_who_changed_what_and_when(settings_cli: Citebot) -> None:
    assert settings_cli("history").err == "No setting has been changed yet.\n"
    settings_cli("set", "discord:1", "daily_questions", "30")
    settings_cli("set", "discord:1", "daily_questions", "none")
    settings_cli("set", "discord:2", "enabled", "off")
    rows = [line.split("\t") for line in settings_cli("history", "discord:1").out.splitlines()]
    assert [row[1:] for row in rows] == [
        ["operator", "discord:1", "daily_questions", "not set", "30"],
        ["operator", "discord:1", "daily_questions", "30", "none"],
    ]
    assert all(row[0].endswith("Z") and "T" in row[0] for row in rows)
    assert len(settings_cli("history").out.splitlines()) == 3


def test_export_then_import_into_another_store_round_trips(
    settings_cli: Citebot, tmp_path: Path
) -> None:
    settings_cli("set", "discord:81384788765712384", "language", "fr")
    settings_cli("set", "discord:81384788765712384/4199", "private_by_default", "on")
    settings_cli("set", "slack:T0123ABC/C0456DEF", "disclaimer", "Généré — vérifiez «les» sources")
    exported = settings_cli("export")
    assert exported.code == 0
    document = json.loads(exported.out)
    assert document == {
        "discord:81384788765712384": {"language": "fr"},
        "discord:81384788765712384/4199": {"private_by_default": "on"},
        "slack:T0123ABC/C0456DEF": {"disclaimer": "Généré — vérifiez «les» sources"},
    }
    backup = tmp_path / "settings.json"
    backup.write_text(exported.out, encoding="utf-8")

    other_store = {"STATE_URL": f"sqlite:///{tmp_path / 'other.db'}"}
    imported = settings_cli("import", str(backup), env=other_store)
    assert imported.code == 0
    assert imported.err == "3 settings changed.\n"
    assert json.loads(settings_cli("export", env=other_store).out) == document
    again = settings_cli("import", "-", env=other_store, stdin=exported.out)
    assert (again.code, again.err) == (0, "Nothing changed.\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("set", "discord:1", "enabled", "maybe"),
            "citebot: enabled: must be on or off, got 'maybe'\n",
        ),
        (
            ("set", "discord:1", "colour", "red"),
            "citebot: colour: there is no such setting; use one of enabled, language,"
            " private_by_default, follow_ups_without_mention, auto_answer, daily_questions,"
            " daily_questions_per_person, daily_tokens, daily_cost, quote_check, disclaimer,"
            " handoff, trusted_sources, or provider\n",
        ),
        (
            ("set", "discord:me", "enabled", "on"),
            "citebot: discord:me: not a place; write discord:GUILD_ID or"
            " discord:GUILD_ID/CHANNEL_ID\n",
        ),
        (
            ("set", "discord:1", "daily_questions", "lots"),
            "citebot: daily_questions: must be a whole number from 1 to 1,000,000,000, or none,"
            " got 'lots'\n",
        ),
        (
            ("unset", "discord:1", "language_"),
            "citebot: language_: there is no such setting; use one of enabled, language,"
            " private_by_default, follow_ups_without_mention, auto_answer, daily_questions,"
            " daily_questions_per_person, daily_tokens, daily_cost, quote_check, disclaimer,"
            " handoff, trusted_sources, or provider\n",
        ),
        (("show", "terminal:1"), None),
        (("history", "irc:#citebot"), None),
    ],
)
def test_a_bad_key_value_or_place_exits_2_with_one_line_and_changes_nothing(
    settings_cli: Citebot, args: tuple[str, ...], message: str | None
) -> None:
    settings_cli("set", "discord:1", "language", "fr")
    ran = settings_cli(*args)
    assert ran.code == 2
    assert ran.out == ""
    assert ran.err.count("\n") == 1
    if message is not None:
        assert ran.err == message
    else:
        assert ": not a place; write discord:GUILD_ID, " in ran.err
    assert json.loads(settings_cli("export").out) == {"discord:1": {"language": "fr"}}
    assert len(settings_cli("history").out.splitlines()) == 1


def test_a_refusal_is_in_the_operator_s_language(settings_cli: Citebot) -> None:
    ran = settings_cli("set", "discord:1", "enabled", "peut-être", env={"CITEBOT_LANGUAGE": "fr"})
    assert ran.err == "citebot: enabled\u00a0: doit valoir on ou off, et non 'peut-être'\n"
    ran = settings_cli("set", "discord:1", "enabled", "vielleicht", env={"LANG": "de_DE.UTF-8"})
    assert ran.err == "citebot: enabled: muss on oder off sein, nicht 'vielleicht'\n"


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        ('{"discord:1": {"language": "fr"},}', "Expecting property name enclosed in double quotes"),
        ('[{"discord:1": {}}]', "$"),
    ],
)
def test_an_import_that_is_not_a_settings_document_changes_nothing(
    settings_cli: Citebot, tmp_path: Path, text: str, detail: str
) -> None:
    settings_cli("set", "discord:1", "language", "de")
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    ran = settings_cli("import", str(path))
    assert ran.code == 2
    assert ran.err.startswith("citebot: not a settings document (")
    assert detail in ran.err
    assert ran.err.count("\n") == 1
    assert json.loads(settings_cli("export").out) == {"discord:1": {"language": "de"}}


def test_an_import_with_one_bad_entry_changes_nothing(settings_cli: Citebot) -> None:
    document = {"discord:1": {"language": "it"}, "discord:2": {"daily_tokens": "0"}}
    ran = settings_cli("import", "-", stdin=json.dumps(document))
    assert ran.code == 2
    assert ran.err == (
        "citebot: discord:2: daily_tokens: must be a whole number from 1 to 1,000,000,000,"
        " or none, got '0'\n"
    )
    assert settings_cli("export").out.strip() == "{}"


def test_an_import_file_that_cannot_be_read_is_named(settings_cli: Citebot) -> None:
    ran = settings_cli("import", "missing.json")
    assert (ran.code, ran.err) == (2, "citebot: missing.json: No such file or directory\n")


def test_memory_state_is_refused_since_no_worker_would_see_it(settings_cli: Citebot) -> None:
    ran = settings_cli("set", "discord:1", "enabled", "off", env={"STATE_URL": "memory://"})
    assert ran.code == 2
    assert ran.err.startswith("citebot: STATE_URL: memory:// lives inside one process")


def test_a_store_that_does_not_answer_is_said_without_its_password(settings_cli: Citebot) -> None:
    url = f"redis://:s3cret-passw0rd@127.0.0.1:{free_port()}/0"
    ran = settings_cli("show", env={"STATE_URL": url, "STATE_TIMEOUT_SECONDS": "0.5"})
    assert ran.code == 1
    assert "s3cret" not in ran.err + ran.out
    assert ran.err.startswith("citebot: STATE_URL: the state store at 'redis://…@127.0.0.1:")
    assert ran.err.count("\n") == 1


async def test_a_change_made_by_the_command_reaches_a_worker_on_the_same_redis(
    redis_process: RedisProcess,
) -> None:
    """End to end: the real command, in its own process, on the workers' Redis."""
    async with open_state(redis_process.url) as worker_state:
        worker = Places(worker_state, defaults=load_settings({}), ttl=0.0)
        assert (await worker.effective("discord", "1", "2")).language == "en"
        env = {"STATE_URL": redis_process.url}
        ran = citebot("settings", "set", "discord:1/2", "language", "zh-TW", env=env)
        assert (ran.returncode, ran.stdout) == (0, "discord:1/2 language: not set → zh_Hant\n")
        assert (await worker.effective("discord", "1", "2")).language == "zh_Hant"

        refused = citebot("settings", "set", "discord:1/2", "language", "tlh", env=env)
        assert refused.returncode == 2
        assert refused.stderr.startswith("citebot: language: must be one of ")
        assert "Traceback" not in refused.stderr
        assert (await worker.effective("discord", "1", "2")).language == "zh_Hant"
