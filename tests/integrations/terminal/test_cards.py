"""The terminal presenter: markup rich can print, with footnotes and cards a reader can follow."""

from __future__ import annotations

import io

from rich.console import Console
from rich.text import Text

from bot.render.formatter import AnswerFormatter
from integrations.terminal.presenter import TerminalPresenter
from tests.integrations.formatter.cases import CASES


def printed(markup: str) -> str:
    console = Console(width=100, record=True, color_system=None, file=io.StringIO())
    console.print(Text.from_markup(markup))
    return console.export_text()


def test_an_answer_prints_with_superscript_footnotes_and_cards() -> None:
    case = CASES["markdown_heavy"]
    formatter = AnswerFormatter(TerminalPresenter())
    formatter.feed(case.text)
    rendered = formatter.finish(case.done())
    (answer,) = rendered.answer
    text = printed(answer["markup"])
    assert "Grace builds on nature, it does not destroy it.¹" in text
    assert "• Term: Grace · Meaning: A gift²" in text
    first_card = printed(rendered.thread[0]["markup"])
    assert "¹ Document 1 — Second Vatican Council · 1965 · 1" in first_card
    assert "https://www.vatican.va/doc/1.html" in first_card
    assert "│ 1. The Church teaches, in passage 1, what follows." in first_card
    assert "Related questions" in printed(rendered.thread[-1]["markup"])


def test_brackets_from_the_answer_are_not_markup() -> None:
    formatter = AnswerFormatter(TerminalPresenter())
    formatter.feed("Use [bold]x[/bold] and `a[1]` [^1]")
    (message,) = formatter.render()
    assert printed(message["markup"]).strip() == "Use [bold]x[/bold] and a[1] ¹"
