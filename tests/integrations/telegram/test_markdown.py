"""Telegram's HTML as citebot writes it: whatever the text, Telegram parses it back to the same
words (nothing read as a tag or an entity), finds no mention to notify in it, and counts it as
:meth:`TelegramHTML.length` does."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.render.dialect import ZWSP
from bot.render.write import render_source
from integrations.telegram.markdown import TelegramHTML, plain
from tests.integrations.telegram.payloads import pings
from tests.sim.telegram.html_mode import parse_html

HTML = TelegramHTML()
TEXT = st.lists(
    st.sampled_from([*"ab @_&<>;#/\n", "é", "😀", "@alice", "@everyone", "&amp;"]), max_size=20
).map("".join)


@given(TEXT)
def test_any_text_reads_back_as_itself_and_pings_nobody(text: str) -> None:
    written = HTML.neutralise(HTML.escape(text, line_start=True))
    shown, entities = parse_html(written)
    assert shown.replace(ZWSP, "") == text
    assert pings(shown, entities) == []
    assert HTML.length(written) == len(shown)


@given(TEXT, TEXT)
def test_a_name_parted_from_its_at_by_markup_still_pings_nobody(before: str, after: str) -> None:
    source = f"{before}@**{after or 'alice'}** and *@*{after}"
    shown, entities = parse_html(HTML.neutralise(render_source(source, HTML).text))
    assert pings(shown, entities) == []


def test_code_keeps_its_words_and_a_block_has_no_blank_edges() -> None:
    written = HTML.neutralise(
        render_source("See `@alice <b>` and\n\n```python\nprint('@all')\n```", HTML).text
    )
    shown, entities = parse_html(written)
    assert shown == "See @alice <b> and\n\nprint('@all')"
    assert [e["type"] for e in entities] == ["code", "pre"]
    assert entities[1]["language"] == "python"


def test_an_email_address_is_left_whole_and_a_link_keeps_no_code() -> None:
    written = render_source("Write to info@vatican.va or [`docs`](https://example.org)", HTML)
    assert "info@vatican.va" in written.text
    assert '<a href="https://example.org">docs</a>' in written.text


def test_refused_html_is_made_plain_words() -> None:
    assert plain("<b>Grace</b> &amp; <i>nature</i>@\u200bx") == "Grace & nature@\u200bx"
