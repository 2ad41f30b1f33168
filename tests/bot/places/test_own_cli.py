"""``citebot answers`` as an operator runs it: what it prints, what it keeps, and what it
refuses (exit 2, one line, nothing changed)."""

from __future__ import annotations

import functools
import json

import pytest

from tests.bot.places.conftest import Citebot, CommandLine


@pytest.fixture
def answers_cli(command_line: CommandLine) -> Citebot:
    return functools.partial(command_line, "answers")


def test_add_list_and_remove_a_places_own_answer(
    answers_cli: Citebot, command_line: CommandLine
) -> None:
    added = answers_cli("add", "discord:1", "When is Mass on Sunday?", "At **10:00**.")
    assert added.code == 0
    assert added.err.endswith("saved.\n")
    answer_id = added.out.strip()
    listed = answers_cli("list", "discord:1")
    [row] = listed.out.splitlines()
    assert row.split("\t")[:4] == [
        answer_id,
        "When is Mass on Sunday?",
        "At **10:00**.",
        "operator",
    ]
    assert answers_cli("list", "discord:1/2").out == ""  # the channel keeps none of its own
    exported = json.loads(command_line("settings", "export").out)
    assert exported["discord:1"]["answers"][0]["id"] == answer_id
    history = command_line("settings", "history", "discord:1").out
    assert f"answer:{answer_id}\tnot set\tWhen is Mass on Sunday? → At **10:00**." in history
    removed = answers_cli("remove", "discord:1", answer_id)
    assert (removed.code, removed.err) == (0, f"Own answer {answer_id} removed.\n")
    assert answers_cli("list", "discord:1").err.startswith("No own answers here yet.")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("add", "discord:me", "Q?", "A."), "citebot: discord:me: not a place; write"),
        (("add", "discord:1", " ", "A."), "citebot: question: must not be empty\n"),
        (("add", "discord:1", "Q?", "x" * 1501), "citebot: answer: must be at most 1,500"),
        (("add", "discord:1", "Q?\nand more?", "A."), "citebot: question: must be one line"),
        (("remove", "discord:1", "abc123"), "citebot: abc123: there is no own answer with"),
    ],
)
def test_bad_input_exits_2_with_one_line_and_changes_nothing(
    answers_cli: Citebot, command_line: CommandLine, args: tuple[str, ...], said: str
) -> None:
    ran = answers_cli(*args)
    assert ran.code == 2
    assert ran.err.startswith(said)
    assert ran.err.count("\n") == 1
    assert command_line("settings", "export").out.strip() == "{}"
