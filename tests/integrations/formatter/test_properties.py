"""Properties of the formatter over any answer and any way the stream cuts it."""

from __future__ import annotations

import html
import itertools
import re
import unicodedata
from typing import Any
from urllib.parse import urlsplit

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.render.ports import Presenter
from tests.integrations.formatter.cases import Case, source
from tests.integrations.formatter.support import (
    card_numbers,
    footnotes_shown,
    presenters,
    problems,
    skeleton,
    stream,
)

FRAGMENTS = [
    "Grace",
    "builds",
    "on",
    "nature.",
    "Faith",
    "and",
    "reason",
    "恩宠成全本性。",
    "👨‍👩‍👧",
    "e\u0301",
    "&amp;",
    "&apos;",
    "**bold**",
    "*it*",
    "~~old~~",
    "`a[1]`",
    "[^1]",
    "[^2]",
    "[^3]",
    "[2]",
    "[^12]",
    "[^1234]",
    "[^0]",
    "[^1][^2]",
    "[^99]",
    "[x](https://ok.org/p)",
    "[https://www.vatican.va/x](https://evil.example/p)",
    "[vatican.va](https://www.vatican.va/y)",
    "[see ｗｗｗ.vatican。va](https://ok.org/p)",
    "[a[1]](https://x.org)",
    "[bad](javascript:alert(1))",
    "<https://auto.org>",
    "@everyone",
    "@here",
    "<@123>",
    "<@!5>",
    "<@&7>",
    "<!channel>",
    "<!here>",
    "<#C1>",
    "<!subteam^S1>",
    "\n\n",
    "\n- ",
    "\n1. ",
    "\n# ",
    "\n#### ",
    "\n> ",
    "\n\n```py\nx = a[1] <@1>\n```\n\n",
    "\n[^1]: def\n",
    "| a | b |\n|---|---|\n| 1 | 2[^1] |\n",
    "\\",
    "[",
    "]",
    "^",
    "***",
    "\n---\n",
    "w" * 2500,
    "\n\n```\n" + "code a[1] <!here>\n" * 150 + "```\n\n",
    "\n\n" + "A sentence here.[^2] " * 120,
]

answers = st.lists(st.sampled_from(FRAGMENTS), max_size=40).map(" ".join)
long_answers = st.tuples(answers, st.integers(1, 3)).map(
    lambda pair: "\n\n".join([pair[0]] * pair[1])
)


@st.composite
def citation_lists(draw: st.DrawFn) -> list[dict[str, Any]]:
    numbers = draw(st.lists(st.integers(1, 13), max_size=8))
    urls = ["https://a.org/x", "https://b.org/y", None, "javascript:alert(1)", "discord://x"]
    titles = ["T", None, "@everyone", "https://www.vatican.va/", "a.org"]
    citations = []
    for number in numbers:
        url = draw(st.sampled_from(urls))
        citations.append(
            source(
                number - 1,
                source_url=url,
                document_reference=draw(st.sampled_from(["1", "2", None])),
                document_title=draw(st.sampled_from(titles)),
                cited_text=draw(st.sampled_from(["quote", "<!here> q" * 200])),
            )
        )
    return citations


_NAMED = re.compile(r"(?<![\w.@])(?:[\w-]+\.)+(?:org|va|example)\b")
"""The hosts these answers' link labels can name."""
_LINK = re.compile(
    r"(?<!\\)(?:\\\\)*\[((?:[^\[\]\\]|\\.)*)\]\(<?(https?://[^)>\s]+)>?\)"
    r"|<(https?://[^|>]+)\|([^>]*)>"
)
"""A Markdown link (its ``[`` not escaped: ``\\[a\\](b)`` shows brackets and a bare URL, as
CommonMark and Discord read it) or an mrkdwn one."""
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
_HTML_LINK = re.compile(r'<a href="([^"]*)">(.*?)</a>', re.S)
"""Telegram's (HTML)."""
_MARKUP_LINK = re.compile(r"\[link=([^\]]+)\](.*?)\[/link\]", re.S)
"""The terminal's (rich markup)."""


def links_in(platform: str, payload: Any) -> list[tuple[str, str]]:
    """Each link of a payload as ``(label, url)``, the label as shown: Markdown or mrkdwn,
    Telegram's HTML, the terminal's markup."""
    if isinstance(payload, dict):
        return [link for value in payload.values() for link in links_in(platform, value)]
    if isinstance(payload, list | tuple):
        return [link for value in payload for link in links_in(platform, value)]
    if not isinstance(payload, str):
        return []
    if platform == "telegram":
        return [
            (html.unescape(label), html.unescape(url)) for url, label in _HTML_LINK.findall(payload)
        ]
    if platform == "terminal":
        return [(label, url) for url, label in _MARKUP_LINK.findall(payload)]
    return [
        (_ESCAPED.sub(r"\1", match[1]), match[2]) if match[2] else (match[4], match[3])
        for match in _LINK.finditer(payload)
    ]


def pieces_of(text: str, cuts: list[int]) -> list[str]:
    points = sorted({min(c, len(text)) for c in cuts})
    return [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True) if b > a]


def check(presenter: Presenter, case: Case, cuts: list[int]) -> None:
    _whole_renders, whole = stream(presenter, case, [case.text])
    renders, split = stream(presenter, case, pieces_of(case.text, cuts))
    # The final payloads do not depend on how the text was cut into deltas.
    assert split.answer == whole.answer
    assert split.thread == whole.thread
    assert split.citations == whole.citations
    # No payload ever breaks a limit, makes a non-http link or carries a live mention.
    for payloads in [*renders, split.answer, split.thread]:
        for payload in payloads:
            assert problems(presenter, payload) == []
    # A message that is not the last never changes again, and none ever disappears.
    for before, after in itertools.pairwise(renders):
        assert len(after) >= len(before)
        closed = max(len(before) - 1, 0)
        assert after[:closed] == before[:closed]
    # The final render keeps the streaming split points.
    if renders:
        last = renders[-1]
        assert len(split.answer) >= len(last)
        for shown, final in zip(last[:-1], split.answer, strict=False):
            assert skeleton(presenter, shown) == skeleton(presenter, final)
    # No link's label names a host other than the one it leads to (or a parent of it).
    for payload in [*split.answer, *split.thread]:
        for label, url in links_in(presenter.name, payload):
            host = urlsplit(url).hostname or ""
            for named in _NAMED.findall(unicodedata.normalize("NFKC", label).replace("。", ".")):
                named = named.lower().removeprefix("www.")
                assert host.removeprefix("www.") == named or host.endswith(f".{named}"), label
    # Every footnote shown has a card with its number, and every card is referenced; when the
    # text names no source, every source is a card (the only place its quote shows).
    shown_numbers = footnotes_shown(presenter, split.answer)
    cards = set(card_numbers(presenter, split.thread))
    assert cards == {c.number for c in split.citations}
    if shown_numbers:
        assert shown_numbers == cards
    else:
        assert cards == set(range(1, len(cards) + 1))
        assert bool(cards) == bool(case.citations)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=answers, citations=citation_lists(), cuts=st.lists(st.integers(0, 600), max_size=40))
@example(text="<!channel> [a[1]](https://x.org)", citations=[], cuts=[])  # the terminal's tags
def test_any_answer_any_split(text: str, citations: list[dict[str, Any]], cuts: list[int]) -> None:
    for presenter in presenters():
        check(presenter, Case(text=text, citations=citations), cuts)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=long_answers, citations=citation_lists(), cuts=st.lists(st.integers(0, 20000), max_size=60)
)
def test_long_answers_split_the_same_however_they_stream(
    text: str, citations: list[dict[str, Any]], cuts: list[int]
) -> None:
    for presenter in presenters():
        check(presenter, Case(text=text, citations=citations), cuts)
