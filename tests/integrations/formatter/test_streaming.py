"""What a user sees while an answer streams, and when it ends early."""

from __future__ import annotations

import itertools
import re

import pytest

from bot.render.formatter import AnswerFormatter
from bot.render.ports import Presenter
from bot.upstream.citations import Citation
from bot.upstream.events import AnswerDone
from integrations.discord.presenter import DiscordPresenter
from integrations.slack.presenter import SlackPresenter
from tests.integrations.discord.payloads import validate_discord_payload
from tests.integrations.formatter.cases import CASES
from tests.integrations.formatter.support import answer_text, skeleton
from tests.integrations.slack.payloads import validate_slack_payload


def test_the_first_delta_shows_at_once_with_plain_footnotes() -> None:
    formatter = AnswerFormatter(DiscordPresenter())
    formatter.feed("Grace builds on nature.[^1]")
    (message,) = formatter.render()
    assert message["content"] == "Grace builds on nature.¹"
    assert message["components"] == []
    slack = AnswerFormatter(SlackPresenter())
    slack.feed("Grace builds on nature.[^1] And")
    assert slack.render()[0]["markdown_text"] == "Grace builds on nature.¹ And"


def test_a_marker_split_across_deltas_never_shows_raw() -> None:
    formatter = AnswerFormatter(DiscordPresenter())
    seen = []
    for piece in ["Faith [", "^", "1", "2", "] and reason [1", "]."]:
        formatter.feed(piece)
        seen.append(formatter.render()[0]["content"])
    assert seen == [
        "Faith",
        "Faith",
        "Faith",
        "Faith",
        "Faith ¹ and reason",
        "Faith ¹ and reason².",  # a footnote before a stop sits on its word
    ]


def test_footnotes_become_links_at_the_end() -> None:
    formatter = AnswerFormatter(DiscordPresenter())
    formatter.feed("Grace builds on nature.[^1]")
    formatter.render()
    rendered = formatter.finish(
        AnswerDone(
            text="Grace builds on nature.[^1]",
            finish_reason="stop",
            citations=(Citation(number=1, cited_text="q", source_url="https://v.va/a b"),),
        )
    )
    assert rendered.answer[0]["content"] == "Grace builds on nature.[¹](<https://v.va/a%20b>)"
    assert [b["custom_id"] for b in rendered.answer[0]["components"][0]["components"]] == [
        "citebot:feedback:up",
        "citebot:feedback:down",
    ]


def test_a_long_answer_fills_messages_that_then_never_change() -> None:
    case = CASES["long_answer"]
    formatter = AnswerFormatter(DiscordPresenter())
    renders = []
    for start in range(0, len(case.text), 250):
        formatter.feed(case.text[start : start + 250])
        renders.append(formatter.render())
    assert len(renders[-1]) >= 5
    for before, after in itertools.pairwise(renders):
        assert after[: len(before) - 1] == before[:-1]
    final = formatter.finish(case.done()).answer
    for shown, done in zip(renders[-1][:-1], final, strict=False):
        assert skeleton(DiscordPresenter(), shown) == skeleton(DiscordPresenter(), done)
    assert all(validate_discord_payload(p) == [] for p in final)


def test_a_paragraph_that_outgrows_the_message_moves_on_at_once_and_never_vanishes() -> None:
    first = " ".join(f"First paragraph sentence {n:02d} is here." for n in range(36))
    second = " ".join(f"Second paragraph words {n:02d} go on." for n in range(16))
    text = f"{first}\n\n{second}\n\nThird."
    formatter = AnswerFormatter(DiscordPresenter())
    shown: list[int] = []
    for start in range(0, len(text), 20):
        formatter.feed(text[start : start + 20])
        shown.append(sum(len(answer_text(m)) for m in formatter.render()))
    # The second paragraph outgrows the first message: it goes to the next one as it streams,
    # instead of disappearing until it is finished.
    assert all(later >= earlier - 5 for earlier, later in itertools.pairwise(shown))
    final = formatter.finish(AnswerDone(text=text, finish_reason="stop")).answer
    assert [answer_text(m).split("\n\n")[0][:6] for m in final] == ["First ", "Second"]


@pytest.mark.parametrize(
    "presenter", [DiscordPresenter(), SlackPresenter()], ids=["discord", "slack"]
)
def test_a_paragraph_that_may_yet_fit_keeps_what_it_showed_until_it_is_cut(
    presenter: Presenter,
) -> None:
    """Beside a short paragraph, a long one outgrows the room left, but where the reader will
    cut it is not decided yet (its first piece might still fit): meanwhile its finished
    sentences stay on screen where they were, and nothing once shown ever vanishes."""
    budget = presenter.text_budget
    short, long = budget * 3 // 8 // 60, budget * 3 // 4 // 60  # sentences of 60 characters
    rest = short + long
    said = [f"Sentence {n:03d} says a little more about grace and nature." for n in range(rest)]
    text = " ".join(said[:short]) + "\n\n" + " ".join(said[short:rest]) + "\n\nEnd."
    formatter = AnswerFormatter(presenter)
    seen: set[str] = set()
    for start in range(0, len(text), 40):
        formatter.feed(text[start : start + 40])
        visible = set(
            re.findall(
                r"Sentence (\d{3}) says a little more about grace and nature\.",
                " ".join(answer_text(m) for m in formatter.render()),
            )
        )
        assert seen <= visible, f"vanished: {sorted(seen - visible)}"
        seen = visible
    assert seen == {f"{n:03d}" for n in range(rest)}


def test_links_that_do_not_fit_stay_plain_numbers_matching_their_cards() -> None:
    url = "https://www.vatican.va/" + "x" * 400
    text = " ".join(f"Claim {n}.[^{n}]" for n in range(1, 9)) * 20
    citations = tuple(
        Citation(number=n, cited_text="q", source_url=f"{url}{n}") for n in range(1, 9)
    )
    formatter = AnswerFormatter(DiscordPresenter())
    formatter.feed(text)
    rendered = formatter.finish(AnswerDone(text=text, finish_reason="stop", citations=citations))
    contents = [m["content"] for m in rendered.answer]
    assert all(len(c) <= 2000 for c in contents)
    assert any("](<" in c for c in contents)
    assert any("⁸" in c.replace("[⁸]", "") for c in contents)


def test_an_interrupted_answer_keeps_its_text_and_says_so() -> None:
    formatter = AnswerFormatter(DiscordPresenter())
    formatter.feed("Grace builds on nature.[^1] It does not")
    shown = formatter.render()
    final = formatter.interrupt("The answer was interrupted.")
    assert len(final) == len(shown)
    assert (
        final[-1]["content"] == "Grace builds on nature. It does not\n\n*The answer was "
        "interrupted.*"
    )
    assert final[-1]["components"] == []


def test_an_interrupted_long_answer_keeps_its_closed_messages() -> None:
    text = CASES["long_answer"].text
    formatter = AnswerFormatter(SlackPresenter())
    formatter.feed(text + "\n\n" + text[:3000])
    shown = formatter.render()
    final = formatter.interrupt("Interrupted.")
    assert len(shown) == 2
    assert [skeleton(SlackPresenter(), m) for m in shown[:-1]] == [
        skeleton(SlackPresenter(), m) for m in final[: len(shown) - 1]
    ]
    assert all(validate_slack_payload(p) == [] for p in final)
    assert "\\[1\\]" not in answer_text(final[-1])


def test_span_citations_get_a_footnote_where_their_span_ends() -> None:
    text = "Grace builds on nature. Faith seeks understanding."
    citations = (
        Citation(number=1, title="A", source_url="https://a.org", provider="openai", span=(0, 23)),
        Citation(number=2, title="B", source_url="https://b.org", provider="openai", span=(24, 50)),
    )
    formatter = AnswerFormatter(DiscordPresenter())
    formatter.feed(text)
    rendered = formatter.finish(AnswerDone(text=text, finish_reason="stop", citations=citations))
    assert rendered.answer[0]["content"] == (
        "Grace builds on nature.[¹](<https://a.org>) Faith seeks understanding.[²](<https://b.org>)"
    )
    assert rendered.cards[1].supports == ("Faith seeks understanding.",)


def spanned(text: str, *spans: tuple[str, str]) -> tuple[Citation, ...]:
    """OpenAI ``url_citation`` annotations, each ``(span text, url)`` where it is in ``text``."""
    return tuple(
        Citation(
            number=n,
            title=f"Page {n}",
            source_url=url,
            provider="openai",
            span=(text.index(part), text.index(part) + len(part)),
        )
        for n, (part, url) in enumerate(spans, start=1)
    )


def test_a_span_that_links_to_its_source_becomes_the_footnote() -> None:
    """gpt-4o-search-preview closes a sentence with ``([host](url))`` and lists ``[title](url)``:
    each link is shown once, as the footnote, and the card supports the sentence, not the link."""
    url, other = "https://www.reuters.com/a?utm_source=openai", "https://apnews.com/b"
    text = (
        f"The eruption was small. Flights were unaffected. ([reuters.com]({url}))\n\n"
        f"- [Iceland volcano erupts]({other})"
    )
    citations = spanned(
        text, (f"([reuters.com]({url}))", url), (f"[Iceland volcano erupts]({other})", other)
    )
    formatter = AnswerFormatter(DiscordPresenter())
    formatter.feed(text)
    rendered = formatter.finish(AnswerDone(text=text, finish_reason="stop", citations=citations))
    assert rendered.answer[0]["content"] == (
        f"The eruption was small. Flights were unaffected.[¹](<{url}>)\n\n"
        f"- Iceland volcano erupts[²](<{other}>)"
    )
    assert [card.supports for card in rendered.cards] == [
        ("Flights were unaffected.",),
        ("Iceland volcano erupts",),
    ]


@pytest.mark.parametrize(
    ("text", "part", "shown"),
    [
        (  # a link to another page than the source's keeps its link and gains the footnote
            "Read it ([reuters.com](https://www.reuters.com/other)).",
            "([reuters.com](https://www.reuters.com/other))",
            "Read it ([reuters.com](<https://www.reuters.com/other>))[¹](<https://www.reuters.com/a>).",
        ),
        (  # the span is the link inside parentheses: the parentheses go with it
            "It was small ([reuters.com](https://www.reuters.com/a)).",
            "[reuters.com](https://www.reuters.com/a)",
            "It was small[¹](<https://www.reuters.com/a>).",
        ),
        (  # a URL with parentheses of its own
            "See [the page](https://www.reuters.com/a_(b)) today.",
            "[the page](https://www.reuters.com/a_(b))",
            "See the page[¹](<https://www.reuters.com/a_%28b%29>) today.",
        ),
    ],
)
def test_a_span_is_the_footnote_only_when_it_links_to_the_source(
    text: str, part: str, shown: str
) -> None:
    url = "https://www.reuters.com/a_(b)" if "a_(b)" in text else "https://www.reuters.com/a"
    formatter = AnswerFormatter(DiscordPresenter())
    formatter.feed(text)
    done = AnswerDone(text=text, finish_reason="stop", citations=spanned(text, (part, url)))
    assert formatter.finish(done).answer[0]["content"] == shown


def test_spans_on_one_link_share_its_place_and_a_cut_answer_keeps_its_note() -> None:
    text = "Flights were unaffected ([reuters.com](https://www.reuters.com/a))"
    link = "([reuters.com](https://www.reuters.com/a))"
    citations = (
        *spanned(text, (link, "https://www.reuters.com/a")),
        Citation(number=2, source_url="https://b.org", provider="openai", span=(24, len(text))),
    )
    formatter = AnswerFormatter(SlackPresenter())
    formatter.feed(text)
    done = AnswerDone(text=text, finish_reason="length", citations=citations)
    shown = answer_text(formatter.finish(done, note="The answer was cut short.").answer[-1])
    assert shown == (
        "Flights were unaffected[¹](https://www.reuters.com/a)·[²](https://b.org)"
        "\n\n*The answer was cut short.*"
    )


def test_a_blank_answer_makes_no_messages() -> None:
    formatter = AnswerFormatter(SlackPresenter())
    rendered = formatter.finish(AnswerDone(text="", finish_reason="content_filter"))
    assert rendered.answer == ()
    assert formatter.render() == ()


def test_an_answer_given_whole_at_the_end_is_formatted_too() -> None:
    formatter = AnswerFormatter(DiscordPresenter())
    rendered = formatter.finish(AnswerDone(text="Only at the end.", finish_reason="stop"))
    assert rendered.answer[0]["content"] == "Only at the end."


def test_notices_are_plain_and_safe() -> None:
    discord = DiscordPresenter().notice("Busy @everyone, you are number *2*")
    assert discord["content"] == "Busy @\u200beveryone, you are number \\*2\\*"
    assert validate_discord_payload(discord) == []
    slack = SlackPresenter().notice("Busy <!channel> & co")
    assert slack["text"] == "Busy &lt;!channel&gt; &amp; co"
    assert validate_slack_payload(slack) == []


def test_the_same_source_twice_is_one_footnote_number() -> None:
    text = "One.[^1] Two.[^2]"
    formatter = AnswerFormatter(DiscordPresenter())
    formatter.feed(text)
    done = AnswerDone(
        text=text,
        finish_reason="stop",
        citations=tuple(
            Citation(number=n, cited_text="same", source_url="https://a.org", reference="7")
            for n in (1, 2)
        ),
    )
    rendered = formatter.finish(done)
    assert rendered.answer[0]["content"].count("[¹](<https://a.org>)") == 2
    assert len(rendered.cards) == 1


def test_streaming_numbers_are_the_final_ones_when_every_marker_has_a_source() -> None:
    text = "Hope.[^3] Faith.[^1] Love.[^3]"
    formatter = AnswerFormatter(DiscordPresenter())
    formatter.feed(text)
    assert formatter.render()[0]["content"] == "Hope.¹ Faith.² Love.¹"
    done = AnswerDone(
        text=text,
        finish_reason="stop",
        citations=tuple(Citation(number=n, cited_text=f"q{n}") for n in (1, 3)),
    )
    assert formatter.finish(done).answer[0]["content"] == "Hope.¹ Faith.² Love.¹"
