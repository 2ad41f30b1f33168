"""The terminal's markup shows an answer's words exactly, whatever brackets and backslashes
they hold and whatever is written around them: rich's markup reads ``[a`` in one piece and
``]`` in the next as one tag, and the words between vanished from ``citebot ask``."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text

from bot.render.formatter import AnswerFormatter
from bot.upstream.citations import Citation
from bot.upstream.events import AnswerDone
from integrations.terminal.markdown import markup_of
from integrations.terminal.presenter import TerminalPresenter

_TRICKY = st.text(alphabet="[]\\/ab#@=¹ \n", max_size=12)
_BETWEEN = st.sampled_from(["", "¹", "\n", "[bold]x[/bold]", "[link=https://x.org]y[/link]"])


def printed(markup: str) -> str:
    console = Console(width=10_000, record=True, color_system=None, file=io.StringIO())
    console.print(Text.from_markup(markup), soft_wrap=True, end="")
    return console.export_text()


@settings(max_examples=400)
@given(pieces=st.lists(st.tuples(_TRICKY, _BETWEEN), max_size=6), styled=st.booleans())
def test_escaped_pieces_show_their_words_whatever_comes_between(
    pieces: list[tuple[str, str]], styled: bool
) -> None:
    markup = "".join(markup_of(words) + between for words, between in pieces)
    expected = "".join(words + Text.from_markup(between).plain for words, between in pieces)
    if styled:
        markup = f"[italic]{markup}[/italic]"
    assert Text.from_markup(markup).plain == expected
    assert printed(markup) == expected


def test_a_bracket_a_dropped_footnote_apart_from_its_close_stays_in_the_answer() -> None:
    formatter = AnswerFormatter(TerminalPresenter())
    formatter.feed("Grace is [a[1] gift]; see [the Catechism[2]](https://x.org).")
    (answer,) = formatter.finish(AnswerDone(text="", finish_reason="stop")).answer
    assert printed(answer["markup"]) == "Grace is [a gift]; see the Catechism[2]."


def test_a_cards_lines_keep_their_brackets() -> None:
    formatter = AnswerFormatter(TerminalPresenter())
    formatter.feed("Grace[1].")
    cited = Citation(
        number=1, cited_text="it is \\", title="On [grace", source_url="https://x.org/1"
    )
    done = AnswerDone(
        text="Grace[1].",
        finish_reason="stop",
        citations=(cited,),
        related_questions=("What is [a", "b] then?"),
    )
    shown = "\n".join(printed(card["markup"]) for card in formatter.finish(done).thread)
    assert "On [grace" in shown
    assert "it is \\" in shown
    assert "1. What is [a\n2. b] then?" in shown


def test_an_upstreams_control_sequences_never_reach_the_terminal() -> None:
    """An ESC sequence in an answer or a quote would retitle the window or recolour the rest:
    the terminal is shown what is left once the controls are gone."""
    text = "Grace \x1b]0;pwned\x07is \x1b[31mfree\x1b[0m\x9b2J[1]."
    formatter = AnswerFormatter(TerminalPresenter())
    formatter.feed(text)
    hijack = "https://x.org/1\x1b]8;;https://evil.example\x1b\\"  # ends the OSC 8 link early
    cited = Citation(number=1, cited_text="a \x1b[8mgift", source_url=hijack)
    rendered = formatter.finish(AnswerDone(text=text, finish_reason="stop", citations=(cited,)))
    (answer,) = rendered.answer
    assert printed(answer["markup"]) == "Grace ]0;pwnedis [31mfree[0m2J¹."
    (link,) = [span.style for span in Text.from_markup(answer["markup"]).spans]
    assert link == "link https://x.org/1%1B%5D8;;https://evil.example%1B%5C"
    assert "│ a [8mgift" in printed(rendered.thread[0]["markup"])
