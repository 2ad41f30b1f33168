"""The terminal presenter: markup rich can print, with footnotes and cards a reader can follow."""

from __future__ import annotations

import io
from dataclasses import replace

from rich.console import Console
from rich.style import Style
from rich.text import Text

from bot.render.formatter import AnswerFormatter
from bot.upstream.citations import Citation
from bot.upstream.events import AnswerDone
from integrations.terminal.presenter import TerminalPresenter
from integrations.terminal.sink import TerminalSink
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


def piped() -> Console:
    """What rich prints into a pipe or a file: no colour system, so no OSC 8 hyperlinks."""
    return Console(width=200, file=io.StringIO())


def answered(presenter: TerminalPresenter, text: str, citations: tuple[Citation, ...]) -> list[str]:
    formatter = AnswerFormatter(presenter)
    formatter.feed(text)
    rendered = formatter.finish(AnswerDone(text=text, finish_reason="stop", citations=citations))
    console = piped()
    for payload in (*rendered.answer, *rendered.thread):
        console.print(Text.from_markup(payload["markup"]))
    assert isinstance(console.file, io.StringIO)
    return console.file.getvalue().splitlines()


SOURCES = (
    Citation(number=1, source_url="https://en.wikipedia.org/wiki/San_Francisco"),
    Citation(number=2, source_url="https://populationstat.com/united-states/san-francisco"),
)


def test_piped_output_prints_every_url_as_text() -> None:
    """``citebot ask … | less``: rich drops OSC 8 links in a pipe, so the answer's own links,
    the cards and the also-consulted list print their URLs."""
    assert not TerminalSink(console=piped()).hyperlinks
    text = "About 827,526 people live there.[1] See [the census](https://census.gov/sf)."
    lines = answered(TerminalPresenter(hyperlinks=False), text, SOURCES)
    assert lines == [
        "About 827,526 people live there.¹ See the census <https://census.gov/sf>.",
        "¹ en.wikipedia.org",
        "https://en.wikipedia.org/wiki/San_Francisco",
        "Supports: “About 827,526 people live there.”",
        "Also consulted",
        "• populationstat.com",
        "  https://populationstat.com/united-states/san-francisco",
    ]


def test_a_terminal_links_the_answer_and_still_prints_the_sources_urls() -> None:
    terminal = Console(width=200, file=io.StringIO(), force_terminal=True, color_system="standard")
    assert TerminalSink(console=terminal).hyperlinks
    formatter = AnswerFormatter(TerminalPresenter())
    text = "About 827,526 people live there.[1] See [the census](https://census.gov/sf)."
    formatter.feed(text)
    rendered = formatter.finish(AnswerDone(text=text, finish_reason="stop", citations=SOURCES))
    (answer,) = rendered.answer
    styles = [span.style for span in Text.from_markup(answer["markup"]).spans]
    links = {(s if isinstance(s, Style) else Style.parse(s)).link for s in styles} - {None}
    assert links == {"https://en.wikipedia.org/wiki/San_Francisco", "https://census.gov/sf"}
    assert "https://populationstat.com/united-states/san-francisco" in printed(
        rendered.thread[-1]["markup"]
    )


def test_passages_of_one_document_print_under_its_title_once() -> None:
    """Magisterium cites several paragraphs of one encyclical: the reader sees the document
    once, each passage under its own number, as on Discord and Slack."""
    page = "https://www.vatican.va/content/francesco/en/encyclicals/laudato-si.html"
    first = Citation(
        number=1,
        cited_text="The urgent challenge to protect our common home…",
        title="Laudato si'",
        author="Pope Francis",
        year="2015",
        reference="13",
        source_url=page,
    )
    second = replace(
        first, number=2, cited_text="A very solid scientific consensus…", reference="23"
    )
    other = Citation(
        number=3,
        cited_text="Peace is the work of justice.",
        title="Gaudium et spes",
        reference="78",
        source_url="https://www.vatican.va/gs.html",
    )
    text = "Care for creation is urgent.[1] The climate is a common good.[2] Peace too.[3]"
    lines = answered(TerminalPresenter(hyperlinks=False), text, (first, second, other))
    assert lines[1:] == [
        "¹ ² Laudato si' — Pope Francis · 2015",
        page,
        "│ ¹ · 13",
        "│ The urgent challenge to protect our common home…",
        "¹ Supports: “Care for creation is urgent.”",
        "│ ² · 23",
        "│ A very solid scientific consensus…",
        "² Supports: “The climate is a common good.”",
        "³ Gaudium et spes — 78",
        "https://www.vatican.va/gs.html",
        "│ Peace is the work of justice.",
        "Supports: “Peace too.”",
    ]
