"""``citebot report`` as an operator runs it on the workers' store, after questions asked
through the real service: its JSON agrees with what was asked (and with the platforms' report),
its CSV and tables say the same, and a bad argument is one line, exit 2."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.admission import Admission
from bot.answer import Question
from bot.billing import tariff
from bot.ops.report import build_report
from bot.service import AnswerService
from bot.state import open_state
from bot.upstream.client import AnswerClient
from config import load_settings
from config.settings import MAGISTERIUM_API as MAGISTERIUM
from tests.bot.presenter import PlainPresenter
from tests.bot.test_service import NOW, Sink
from tests.sim.upstream import UpstreamSim


@dataclass(frozen=True)
class Ran:
    code: int
    out: str
    err: str


Report = Callable[..., Ran]


@pytest.fixture
def report_cli(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> Report:
    """``citebot report ...`` in this process on the SQLite store the questions went to."""
    monkeypatch.chdir(tmp_path)
    for name in ("CITEBOT_LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "ANSWER_LOG", "COLUMNS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("STATE_URL", f"sqlite:///{tmp_path / 'state.db'}")

    def run(*args: str, env: Mapping[str, str] = {}) -> Ran:
        with monkeypatch.context() as patch:
            for name, value in env.items():
                patch.setenv(name, value)
            code = main(["report", *args])
        printed = capsys.readouterr()
        return Ran(code, printed.out, printed.err)

    return run


@pytest.fixture
async def asked(answer_client: AnswerClient, upstream: UpstreamSim, tmp_path: Path) -> None:
    """Three questions on Discord, two in one channel of one server."""
    async with open_state(f"sqlite:///{tmp_path / 'state.db'}") as state:
        service = AnswerService(
            client=answer_client,
            state=state,
            admission=Admission(max_in_flight=2),
            tariff=tariff(load_settings({"UPSTREAM_BASE_URL": MAGISTERIUM}, env_file=None)),
        )
        for text, server, channel in (
            ("What is grace?", "111", "21"),
            ("What is mercy?", "111", "21"),
            ("What is hope?", "222", "31"),
        ):
            question = Question(
                text=text, platform="discord", user_id="9", channel_id=channel, server_id=server
            )
            await service.ask(question, presenter=PlainPresenter(), sink=Sink(), pacer=NOW)


async def test_json_says_what_was_asked_and_agrees_with_the_platforms_report(
    asked: None, report_cli: Report, tmp_path: Path
) -> None:
    ran = await asyncio.to_thread(report_cli, "--format", "json", "--place", "discord:111")
    assert (ran.code, ran.err) == (0, "")
    shown = json.loads(ran.out)
    assert shown["place"] == "discord:111"
    assert shown["questions"] == 2
    assert shown["outcomes"] == {"answered": 2}
    # each answer's usage (12 + 2 tokens), and Magisterium's system tokens it does not report
    assert shown["tokens"] == {
        "reported": 28,
        "estimated": 33_000,
        "by_kind": {
            "input": {"reported": 24},
            "system": {"estimated": 33_000},
            "output": {"reported": 4},
        },
    }
    # 12 x $0.50 + 16,500 x $0.70 + 2 x $2.00 a million tokens, twice
    assert shown["cost"] == {"usd": "0.023120", "unpriced_answers": 0}
    assert shown["top_questions"] is None  # metadata: the words are not kept
    assert shown["busiest_channels"] == [{"place": "discord:111/21", "count": 2}]
    async with open_state(f"sqlite:///{tmp_path / 'state.db'}") as state:
        same = await build_report(
            state, since=shown["since"], until=shown["until"], platform="discord", server="111"
        )
    assert same.to_json() == shown
    everywhere = json.loads((await asyncio.to_thread(report_cli, "--format", "json")).out)
    assert everywhere["questions"] == 3
    assert [c["place"] for c in everywhere["busiest_channels"]] == [
        "discord:111/21",
        "discord:222/31",
    ]


async def test_csv_gives_each_number_a_row(asked: None, report_cli: Report) -> None:
    ran = await asyncio.to_thread(report_cli, "--format", "csv", "--since", "24h")
    rows = list(csv.reader(io.StringIO(ran.out)))
    assert rows[0] == ["section", "key", "value"]
    assert ["outcomes", "answered", "3"] in rows
    assert ["tokens", "reported", "42"] in rows
    assert ["tokens", "system", "49500"] in rows
    assert ["cost", "usd", "0.034680"] in rows
    assert ["busiest_channels", "discord:111/21", "2"] in rows


async def test_the_tables_are_in_the_command_lines_language(
    asked: None, report_cli: Report
) -> None:
    english = await asyncio.to_thread(report_cli, env={"COLUMNS": "120"})
    assert english.code == 0
    assert english.out.startswith("Every place, from ")
    for words in ("Answers", "Answered", "Tokens used", "Where most questions were asked"):
        assert words in english.out
    assert "The questions' words are not kept (ANSWER_LOG=metadata)" in english.out
    french = await asyncio.to_thread(
        report_cli, "--place", "discord:222/31", env={"CITEBOT_LANGUAGE": "fr", "COLUMNS": "120"}
    )
    assert french.out.startswith("discord:222/31, du ")
    assert "Répondues" in french.out
    assert "Tokens utilisés" in french.out


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--since", "7x"), "citebot: --since: write a period such as 7d, 24h or 30m"),
        (("--since", "0d"), "citebot: --since: write a period such as 7d, 24h or 30m"),
        (("--format", "xml"), "citebot: --format: must be table, csv or json, got 'xml'"),
        (("--place", "myspace:1"), "citebot: myspace:1: not a place; write discord:GUILD_ID"),
    ],
)
def test_a_bad_argument_is_one_line_and_exit_2(
    report_cli: Report, args: tuple[str, ...], said: str
) -> None:
    ran = report_cli(*args)
    assert ran.code == 2
    assert ran.out == ""
    assert ran.err.count("\n") == 1
    assert ran.err.startswith(said)


def test_memory_is_refused_since_it_holds_no_workers_answers(report_cli: Report) -> None:
    ran = report_cli(env={"STATE_URL": "memory://"})
    assert ran.code == 2
    assert ran.err.startswith("citebot: STATE_URL: memory:// lives inside one process")
