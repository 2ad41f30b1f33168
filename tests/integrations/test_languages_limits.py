"""An answer in any of citebot's languages still keeps every Discord, Slack and Telegram limit:
the longest answer with many sources, its cards, related questions and notes, and every notice,
rendered through the real formatter with each language's labels."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import pytest

from bot.i18n.wording import LANGUAGES, Wording
from bot.render.formatter import AnswerFormatter
from bot.render.ports import Payload, Presenter
from bot.render.thread import write_thread
from bot.upstream.citations import Citation
from bot.upstream.errors import (
    BadKey,
    BadRequest,
    ContentFiltered,
    RateLimited,
    StreamCut,
    TokenLimit,
    UpstreamDown,
    UpstreamError,
)
from bot.upstream.events import AnswerDone
from bot.verify import Verdict
from integrations.discord.presenter import DiscordPresenter
from integrations.slack.presenter import SlackPresenter
from integrations.telegram.presenter import TelegramPresenter
from tests.integrations.discord.payloads import validate_discord_payload
from tests.integrations.slack.payloads import validate_slack_payload
from tests.integrations.telegram.payloads import validate_telegram_payload

SENTENCE = {
    "zh_Hans": "恩宠建立在本性之上，并不摧毁本性，而是成全本性，使人能够分享天主的生命。",
    "zh_Hant": "恩寵建立在本性之上，並不摧毀本性，而是成全本性，使人能夠分享天主的生命。",
    "pl": "Łaska nie niszczy natury, lecz ją zakłada i udoskonala, prowadząc człowieka do Boga.",
}
LATIN = "Grace does not destroy nature but builds on it and perfects it, as the sources say."
USED, UNUSED = 30, 12

PRESENTERS: list[tuple[Presenter, Any]] = [
    (DiscordPresenter(), validate_discord_payload),
    (SlackPresenter(), validate_slack_payload),
    (TelegramPresenter(), validate_telegram_payload),
]
"""Each platform's presenter and validator; its ``name`` chooses its words."""


def _long_answer(language: str) -> str:
    """About 40 000 characters in 60 paragraphs, each citing one of the sources."""
    sentence = SENTENCE.get(language, LATIN)
    paragraph = sentence * (650 // len(sentence) + 1)
    return "\n\n".join(paragraph + f"[^{index % USED + 1}]" for index in range(60))


def _citations(language: str) -> tuple[Citation, ...]:
    sentence = SENTENCE.get(language, LATIN)
    return tuple(
        Citation(
            number=number,
            cited_text=sentence * 40,
            heading=sentence * 3,
            title=sentence * 4,
            author=sentence * 4,
            year="1965",
            reference=sentence * 40,
            source_url=f"https://www.vatican.va/{number}/" + "x" * 300,
        )
        for number in range(1, USED + UNUSED + 1)
    )


def _problems(validate: Any, payloads: Iterable[Payload]) -> list[str]:
    return [problem for payload in payloads for problem in validate(payload)]


def _shown(payloads: Iterable[Payload]) -> str:
    return json.dumps(list(payloads), ensure_ascii=False)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("presenter", "validate"), PRESENTERS, ids=["discord", "slack", "telegram"]
)
def test_a_long_cited_answer_keeps_the_limits_in_every_language(
    language: str, presenter: Presenter, validate: Any
) -> None:
    wording = Wording(language, presenter.name)
    text = _long_answer(language)
    formatter = AnswerFormatter(presenter, wording=wording)
    for start in range(0, len(text), 997):
        formatter.feed(text[start : start + 997])
        assert _problems(validate, formatter.render()) == []
    related = tuple(f"{SENTENCE.get(language, LATIN) * 6}?" for _ in range(5))
    done = AnswerDone(
        text=text, finish_reason="length", citations=_citations(language), related_questions=related
    )
    rendered = formatter.finish(done, note=wording.cut_short())

    assert len(rendered.answer) > 2
    assert _problems(validate, rendered.answer) == []
    assert _problems(validate, rendered.thread) == []
    assert len(rendered.citations) == USED
    assert len(rendered.also_consulted) == UNUSED
    labels = wording.labels
    thread = _shown(rendered.thread)
    for label in (labels.supports, labels.also_consulted, labels.related):
        assert label in thread, label
    assert wording.cut_short()[:20] in _shown(rendered.answer[-1:])


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("presenter", "validate"), PRESENTERS, ids=["discord", "slack", "telegram"]
)
def test_an_interrupted_answer_keeps_the_limits_in_every_language(
    language: str, presenter: Presenter, validate: Any
) -> None:
    wording = Wording(language, presenter.name)
    formatter = AnswerFormatter(presenter, wording=wording)
    formatter.feed(_long_answer(language)[:25_000])
    interrupted = formatter.interrupt(wording.interrupted())
    assert _problems(validate, interrupted) == []
    assert wording.interrupted()[:20] in _shown(interrupted[-1:])


def _cards_in(payload: Payload) -> list[str]:
    """Which cards a thread message holds: Discord's embeds by title and numbers, Slack's by
    the titles its notification text names."""
    if "embeds" in payload:
        return [f"{e['title']} {e.get('author', {}).get('name')}" for e in payload["embeds"]]
    return [str(payload.get("text"))]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("presenter", "validate"), PRESENTERS, ids=["discord", "slack", "telegram"]
)
@pytest.mark.parametrize("verdicts", ["not found", "mixed"])
def test_verdicts_edited_into_the_cards_keep_the_limits_and_move_no_card(
    language: str, presenter: Presenter, validate: Any, verdicts: str
) -> None:
    """The longest answer's cards, full to each message's limits, then every quote's verdict
    edited in (the longest, or each kind in turn): the same messages hold the same cards."""
    wording = Wording(language, presenter.name)
    formatter = AnswerFormatter(presenter, wording=wording)
    text = _long_answer(language)
    formatter.feed(text)
    done = AnswerDone(text=text, finish_reason="stop", citations=_citations(language))
    rendered = formatter.finish(done)
    kinds = [Verdict.NOT_FOUND] if verdicts == "not found" else [*Verdict, None]
    checked = [
        replace(card, quote_check=kinds[index % len(kinds)])
        for index, card in enumerate(rendered.cards)
    ]

    edited = write_thread(replace(rendered.layout, cards=checked), presenter)

    assert len(rendered.thread) > 1
    assert [_cards_in(p) for p in edited] == [_cards_in(p) for p in rendered.thread]
    assert _problems(validate, edited) == []
    shown = _shown(edited)
    assert wording.labels.quote_not_found in shown
    assert (wording.labels.quote_found in shown) is (verdicts == "mixed")


ERRORS: list[UpstreamError] = [
    BadKey("no"),
    BadRequest("no"),
    TokenLimit("no"),
    RateLimited("busy", retry_after=86_400),
    RateLimited("busy", retry_after=None),
    UpstreamDown("down"),
    StreamCut("cut"),
    ContentFiltered("no"),
    UpstreamError("?"),
]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("presenter", "validate"), PRESENTERS, ids=["discord", "slack", "telegram"]
)
def test_every_notice_keeps_the_limits_in_every_language(
    language: str, presenter: Presenter, validate: Any
) -> None:
    wording = Wording(language, presenter.name)
    sentences = [
        *(wording.explain(error) for error in ERRORS),
        wording.cut_short(),
        wording.empty(),
        wording.restarting(),
        wording.queued(1_000_000),
        wording.after_thread_turn(1),
        wording.after_thread_turn(1_000),
        wording.user_rate_limited(86_400),
        wording.question_too_long(1_000_000),
        wording.empty_question(),
        wording.not_allowed_here(),
        wording.feedback_thanks(),
        wording.thinking(),
    ]
    notices = [presenter.notice(sentence) for sentence in sentences]
    assert _problems(validate, notices) == []
    assert wording.number(1_000_000) in _shown(notices)
